package dev.reliableredis.camel.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import dev.reliableredis.camel.metadata.ComponentMetadata.Option;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference docs are generated from the component JSON, so that they cannot drift from the options: the tables
 * of src/main/docs/reliable-redis-component.adoc and docs/reference.md are rewritten in memory and compared with the
 * files. Run with -Dupdate-docs=true to rewrite them. The user guide's hand-written tables must name every option
 * and header.
 */
class ReferenceDocTest {

    private static final Path ADOC = Path.of("src/main/docs/reliable-redis-component.adoc");
    private static final Path REFERENCE = Path.of("../docs/reference.md");
    private static final Path USER_GUIDE = Path.of("../docs/user-guide.md");
    private static final Pattern FIRST_CELL = Pattern.compile("^\\| `([A-Za-z]+)`", Pattern.MULTILINE);

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

    @Test
    void theUserGuideTablesNameEveryOption() throws IOException {
        String guide = Files.readString(USER_GUIDE);
        assertThat(firstCells(Sections.between(guide, "### Endpoint options", "### ")))
                .as("the options in the user guide's endpoint options table")
                .containsExactlyInAnyOrderElementsOf(names(metadata.queryOptions()));
        assertThat(firstCells(Sections.between(guide, "### Component options", "## ")))
                .as("the options in the user guide's component options table")
                .containsExactlyInAnyOrderElementsOf(names(metadata.componentOptions()));
        assertThat(firstCells(Sections.between(guide, "## Headers", "## ")))
                .as("the headers in the user guide's headers table")
                .containsExactlyInAnyOrderElementsOf(names(metadata.headers()));
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

    private static List<String> firstCells(String table) {
        return FIRST_CELL.matcher(table).results().map(m -> m.group(1)).toList();
    }

    private static List<String> names(List<Option> options) {
        return options.stream().map(Option::name).toList();
    }
}
