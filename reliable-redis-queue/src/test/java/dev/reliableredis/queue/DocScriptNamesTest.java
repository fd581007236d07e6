package dev.reliableredis.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every script a doc names ({@code list/claim.lua}, {@code includes/time.lua}) is a file of the lua folder, by its
 * path there: a name without its mode's folder, or of a script since renamed, fails. The docs are README.md and every
 * page under docs/, the user guide's pages in docs/guide/ included.
 */
class DocScriptNamesTest {

    private static final Path LUA = Path.of("src/main/resources/dev/reliableredis/queue/lua");
    private static final Pattern SCRIPT = Pattern.compile("(?<![\\w./-])([\\w./-]+\\.lua)\\b");

    @Test
    void everyScriptTheDocsNameExists() throws IOException {
        List<Path> docs;
        try (Stream<Path> files = Files.walk(Path.of("../docs"))) {
            docs = new ArrayList<>(files.filter(file -> file.toString().endsWith(".md")).sorted().toList());
        }
        docs.add(Path.of("../README.md"));
        List<String> named = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Path doc : docs) {
            Matcher script = SCRIPT.matcher(read(doc));
            while (script.find()) {
                named.add(script.group(1));
                if (!Files.isRegularFile(LUA.resolve(script.group(1)))) {
                    missing.add(doc.normalize() + ": " + script.group(1));
                }
            }
        }
        assertThat(named).as("scripts the docs name").hasSizeGreaterThan(100);
        assertThat(missing).as("scripts named in the docs that are not in " + LUA).isEmpty();
    }

    private static String read(Path doc) {
        try {
            return Files.readString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
