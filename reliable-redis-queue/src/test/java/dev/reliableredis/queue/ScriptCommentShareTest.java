package dev.reliableredis.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripts' comments are their contracts (keys, arguments, replies, errors) and short reasons; the reasoning
 * lives in docs/scripts.md. At most a fifth of the non-empty lines of all shipped scripts together are comment
 * lines, block comments included.
 */
class ScriptCommentShareTest {

    private static final Path LUA = Path.of("src/main/resources/dev/reliableredis/queue/lua");

    @Test
    void atMostAFifthOfTheScriptsLinesAreComments() throws IOException {
        int lines = 0;
        int comments = 0;
        try (Stream<Path> files = Files.walk(LUA)) {
            for (Path script : files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                boolean inBlock = false;
                for (String line : Files.readAllLines(script)) {
                    String text = line.strip();
                    if (text.isEmpty()) {
                        continue;
                    }
                    lines++;
                    if (inBlock) {
                        comments++;
                        inBlock = !text.contains("]]");
                    } else if (text.startsWith("--[[")) {
                        comments++;
                        inBlock = !text.substring(4).contains("]]");
                    } else if (text.startsWith("--")) {
                        comments++;
                    }
                }
            }
        }
        assertThat(lines).as("non-empty lines of the scripts").isGreaterThan(1000);
        assertThat(comments * 5).as(comments + " comment lines of " + lines).isLessThanOrEqualTo(lines);
    }
}
