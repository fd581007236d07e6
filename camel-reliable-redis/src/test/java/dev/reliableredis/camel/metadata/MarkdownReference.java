package dev.reliableredis.camel.metadata;

import java.util.List;

import dev.reliableredis.camel.metadata.ComponentMetadata.Option;

/** The generated part of docs/reference.md: the options and headers tables of the component JSON. */
final class MarkdownReference {

    static final String START = "<!-- reference: START, generated from reliable-redis.json by ReferenceDocTest -->";
    static final String END = "<!-- reference: END -->";

    private final ComponentMetadata metadata;

    MarkdownReference(ComponentMetadata metadata) {
        this.metadata = metadata;
    }

    String update(String doc) {
        return Sections.replace(doc, START, END, tables());
    }

    private String tables() {
        return "\n## Component options\n\n"
               + "Set once for all endpoints, for example `camel.component." + metadata.get("scheme")
               + ".redis-uri` with Camel Main.\n\n"
               + table("option", metadata.componentOptions())
               + "\n## Endpoint options\n\n"
               + "    " + metadata.get("syntax") + "[?options]\n\n"
               + "### Path parameters\n\n"
               + table("parameter", metadata.pathOptions())
               + "\n### Query parameters\n\n"
               + table("option", metadata.queryOptions())
               + "\n## Message headers\n\n"
               + table("header", metadata.headers()) + "\n";
    }

    private static String table(String what, List<Option> options) {
        StringBuilder table = new StringBuilder("| " + what + " | group | default | type | description |\n"
                                                + "|---|---|---|---|---|\n");
        for (Option option : options) {
            table.append("| `").append(option.name()).append("` | ").append(orEmpty(option.group()))
                    .append(" | ").append(option.defaultValue() == null ? "" : "`" + option.defaultValue() + "`")
                    .append(" | ").append(escape(Descriptions.simpleType(option)))
                    .append(" | ").append(escape(Descriptions.of(option, "**", "`"))).append(" |\n");
        }
        return table.toString();
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    /** A | ends a cell; a < can open an HTML tag. */
    private static String escape(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;");
    }
}
