package dev.reliableredis.camel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The log the tests of this module write (simplelogger.properties), for assertions on what was logged. */
final class TestLog {

    private static final Path FILE = Path.of("target/test-logs.txt");

    private TestLog() {
    }

    static String text() {
        try {
            return Files.exists(FILE) ? Files.readString(FILE) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int occurrences(String part) {
        String text = text();
        int count = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            count++;
        }
        return count;
    }
}
