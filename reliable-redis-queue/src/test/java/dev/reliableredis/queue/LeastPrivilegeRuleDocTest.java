package dev.reliableredis.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The least-privilege ACL rule that the user guide's security page (and any other doc under docs/, between the same
 * markers) gives is the one the tests run as under -Dreliable-redis.test.acl=true ({@link LeastPrivilegeUser#RULE}),
 * and it allows what the scripts and the Java side send, and nothing else.
 */
class LeastPrivilegeRuleDocTest {

    private static final Path DOCS = Path.of("../docs");
    /** The user guide's page that gives the rule and the rules of the other users. */
    private static final Path SECURITY = Path.of("guide", "security.md");
    private static final String BEGIN =
            "<!-- acl rule: LeastPrivilegeUser.RULE, checked by LeastPrivilegeRuleDocTest -->\n```\n";
    private static final String END = "\n```\n<!-- end of acl rule -->";
    private static final Path LUA = Path.of("src/main/resources/dev/reliableredis/queue/lua");
    /** {@code redis.call('XINFO', 'GROUPS', ...)}: the command and, for commands with subcommands, the subcommand. */
    private static final Pattern CALL = Pattern.compile("redis\\.p?call\\(\\s*'([A-Z]+)'(?:\\s*,\\s*'([A-Z]+)')?");
    /** {@code {'XADD', stream, '*'}}: a call built as a table, made with {@code redis.call(unpack(...))}. */
    private static final Pattern BUILT_CALL = Pattern.compile("\\{\\s*'([A-Z]+)'");
    /** The commands the scripts call with a subcommand, which the rule allows alone ({@code +xinfo|groups}). */
    private static final Set<String> WITH_SUBCOMMANDS = Set.of("XINFO", "XGROUP");
    /** The commands the component sends itself, outside the scripts (the scripts send ZCARD, EXISTS, XREADGROUP and XREVRANGE too). */
    private static final Set<String> SENT_FROM_JAVA = Set.of("+evalsha", "+eval", "+ping", "+blpop", "+client|id",
            "+client|unblock", "+zcard", "+exists", "+xread", "+xreadgroup", "+xrevrange", "+xgroup|create");

    @Test
    void everyDocThatGivesTheRuleGivesTheOneTheTestsRunAs() throws IOException {
        List<Path> withRule = new ArrayList<>();
        try (Stream<Path> docs = Files.walk(DOCS)) {
            for (Path doc : docs.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String text = Files.readString(doc);
                int from = text.indexOf(BEGIN);
                if (from >= 0) {
                    withRule.add(DOCS.relativize(doc));
                    int to = text.indexOf(END, from);
                    assertThat(to).as("the end marker in " + doc).isGreaterThan(from);
                    assertThat(text.substring(from + BEGIN.length(), to)).as(doc.toString())
                            .isEqualTo("ACL SETUSER camel on >change-me " + LeastPrivilegeUser.RULE);
                }
            }
        }
        assertThat(withRule).contains(SECURITY);
        assertThat(Files.readString(DOCS.resolve(SECURITY)))
                .contains("`" + LeastPrivilegeUser.IDEMPOTENT_REPOSITORY_RULE + "`")
                .contains("plus `" + LeastPrivilegeUser.DASHBOARD_RULE + "`")
                .contains("add `" + LeastPrivilegeUser.CLUSTER_RULE + "`");
    }

    @Test
    void theRuleAllowsEveryCommandOfTheScriptsAndOfTheJavaSideAndNoOther() throws IOException {
        Set<String> needed = new TreeSet<>(SENT_FROM_JAVA);
        try (Stream<Path> files = Files.walk(LUA)) {
            for (Path script : files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                needed.addAll(commandsOf(Files.readString(script)));
            }
        }
        Set<String> allowed = new TreeSet<>(Arrays.stream(LeastPrivilegeUser.RULE.split(" "))
                .filter(token -> token.startsWith("+")).toList());

        assertThat(allowed).isEqualTo(needed);
    }

    /** The ACL tokens a script's calls need: {@code +xinfo|groups} for a subcommand, else {@code +lpop}. */
    private static List<String> commandsOf(String source) {
        List<String> commands = new ArrayList<>();
        Matcher call = CALL.matcher(source);
        while (call.find()) {
            boolean subcommand = call.group(2) != null && WITH_SUBCOMMANDS.contains(call.group(1));
            commands.add(("+" + call.group(1) + (subcommand ? "|" + call.group(2) : "")).toLowerCase());
        }
        Matcher built = BUILT_CALL.matcher(source);
        while (built.find()) {
            commands.add("+" + built.group(1).toLowerCase());
        }
        return commands;
    }
}
