package dev.reliableredis.camel.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference docs are generated from the component JSON, so that they cannot drift from the options: the tables
 * of src/main/docs/reliable-redis-component.adoc and docs/reference.md are rewritten in memory and compared with the
 * files. Run with -Dupdate-docs=true to rewrite them. The user guide's task pages (docs/guide/) link to
 * docs/reference.md instead of repeating its tables.
 */
class ReferenceDocTest {

    private static final Path ADOC = Path.of("src/main/docs/reliable-redis-component.adoc");
    private static final Path REFERENCE = Path.of("../docs/reference.md");

    private static ComponentMetadata metadata;

    @BeforeAll
    static void load() throws IOException {
        metadata = ComponentMetadata.load();
    }

    @Test
    void theComponentPageIsTheJson() throws IOException {
        check(ADOC, new AsciidocReference(metadata)::update);
    }

    @Test
    void theMarkdownReferenceIsTheJson() throws IOException {
        check(REFERENCE, new MarkdownReference(metadata)::update);
    }

    private static void check(Path file, UnaryOperator<String> generator) throws IOException {
        String doc = Files.readString(file);
        String updated = generator.apply(doc);
        if (Boolean.getBoolean("update-docs")) {
            Files.writeString(file, updated);
            doc = Files.readString(file);
        }
        assertThat(doc).as(file + " is behind the component JSON: run "
                           + "mvn -pl camel-reliable-redis test -Dtest=ReferenceDocTest -Dupdate-docs=true")
                .isEqualTo(updated);
    }
}
