package dev.reliableredis.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The script reference in docs/redis-layout.md is the scripts' own header comments (KEYS, ARGV, returns), copied
 * between markers, so that it cannot drift from the scripts. Run with -Dupdate-docs=true to rewrite it.
 */
class RedisLayoutDocTest {

    private static final Path LUA = Path.of("src/main/resources/dev/reliableredis/queue/lua");
    private static final Path DOC = Path.of("../docs/redis-layout.md");

    private static final List<String> LIST_SCRIPTS = List.of("list/enqueue", "list/claim", "list/claim-dead",
            "list/ack", "list/handoff", "list/nack", "list/extend", "list/release", "list/reap", "list/redrive",
            "list/purge", "list/stats", "list/browse", "shard-count", "includes/shards", "includes/wake",
            "list/includes/lease",
            "includes/time", "includes/types", "includes/backoff", "includes/limits", "includes/claim_record",
            "includes/claimants", "includes/errors",
            "list/reshard-read", "list/reshard-put", "list/reshard-drop", "pause", "resume", "includes/pause",
            "list/includes/capacity", "includes/rate", "list/includes/extras", "list/includes/priority",
            "list/includes/group",
            "list/includes/ack_steps", "list/includes/enqueue_steps", "schedule-declare", "schedule-read",
            "list/schedule-fire", "includes/schedule", "reply", "includes/reply", "list/includes/record");
    private static final List<String> STREAM_SCRIPTS = List.of("stream/enqueue", "stream/claim", "stream/ack",
            "stream/nack", "stream/extend", "stream/release", "stream/reap", "stream/redrive", "stream/purge",
            "stream/stats", "stream/browse", "stream/leave", "stream/includes/groups", "stream/includes/dead_letter",
            "stream/includes/add", "stream/includes/deliveries", "stream/reshard-read", "stream/reshard-put",
            "stream/reshard-drop", "stream/includes/capacity", "stream/handoff", "stream/includes/ack_steps",
            "stream/includes/enqueue_steps", "stream/schedule-fire", "stream/includes/delayed");

    @Test
    void theScriptReferenceIsTheScriptsOwnHeaders() throws IOException {
        String doc = Files.readString(DOC);
        String updated = replaceSection(replaceSection(doc, "list scripts", "### ", LIST_SCRIPTS), "stream scripts",
                "#### ", STREAM_SCRIPTS);
        if (Boolean.getBoolean("update-docs")) {
            Files.writeString(DOC, updated);
            doc = Files.readString(DOC);
        }
        assertThat(doc).as("docs/redis-layout.md is behind the scripts' headers: run "
                           + "mvn -pl reliable-redis-queue test -Dtest=RedisLayoutDocTest -Dupdate-docs=true")
                .isEqualTo(updated);
    }

    @Test
    void everyScriptIsInTheReference() throws IOException {
        try (Stream<Path> files = Files.walk(LUA)) {
            List<String> scripts = files.filter(f -> f.toString().endsWith(".lua"))
                    .map(f -> LUA.relativize(f).toString().replace('\\', '/').replaceAll("\\.lua$", "")).toList();
            assertThat(Stream.concat(LIST_SCRIPTS.stream(), STREAM_SCRIPTS.stream()))
                    .containsExactlyInAnyOrderElementsOf(scripts);
        }
    }

    private static String replaceSection(String doc, String name, String heading, List<String> scripts)
            throws IOException {
        String begin = "<!-- " + name + ": generated from the scripts' headers by RedisLayoutDocTest -->\n";
        String end = "<!-- end of " + name + " -->\n";
        int from = doc.indexOf(begin);
        int to = doc.indexOf(end);
        assertThat(from).as("the marker " + begin.trim()).isNotNegative();
        assertThat(to).as("the marker " + end.trim()).isGreaterThan(from);
        StringBuilder section = new StringBuilder(begin);
        for (String script : scripts) {
            section.append('\n').append(heading).append(script).append(".lua\n\n```lua\n").append(header(script))
                    .append("```\n");
        }
        section.append('\n');
        return doc.substring(0, from) + section + doc.substring(to);
    }

    /** The text of the script's opening --[[ ... ]] comment, its two-space indent removed. */
    private static String header(String script) throws IOException {
        String source = Files.readString(LUA.resolve(script + ".lua"));
        assertThat(source).as(script + ".lua opens with a --[[ comment").startsWith("--[[\n");
        StringBuilder text = new StringBuilder();
        for (String line : source.substring(5, source.indexOf("]]")).split("\n", -1)) {
            text.append(line.startsWith("  ") ? line.substring(2) : line).append('\n');
        }
        return text.toString().replaceAll("\n+$", "\n");
    }
}
