package dev.reliableredis.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue engine ({@code dev.reliableredis.queue} and its sub-packages) knows Redis and not Camel: no source of it
 * imports Camel or the component's Camel layer. Until the engine is a module of its own, this test keeps the split.
 */
class EngineWithoutCamelTest {

    private static final Path ENGINE = Path.of("src/main/java/dev/reliableredis/queue");
    private static final Pattern CAMEL_IMPORT = Pattern.compile(
            "^import (static )?(org\\.apache\\.camel|dev\\.reliableredis\\.camel)\\.", Pattern.MULTILINE);

    @Test
    void noEngineSourceImportsCamel() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(ENGINE)) {
            sources = files.filter(file -> file.toString().endsWith(".java")).toList();
        }
        assertThat(sources).as("the engine's sources").hasSizeGreaterThan(40);
        assertThat(sources).as("engine sources that import Camel")
                .filteredOn(source -> CAMEL_IMPORT.matcher(read(source)).find()).isEmpty();
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + source, e);
        }
    }
}
