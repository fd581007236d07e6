package dev.reliableredis.camel.metadata;

import java.util.List;

import dev.reliableredis.camel.metadata.ComponentMetadata.Option;

/**
 * The generated parts of src/main/docs/reliable-redis-component.adoc, in the layout of Camel's own component pages:
 * the attribute header that Camel's update-readme writes, and the options and headers tables that Camel's website
 * renders from the same JSON (out of Camel's tree there is no website to render them, so they are written out).
 */
final class AsciidocReference {

    static final String COMPONENT = "component-configure options";
    static final String ENDPOINT = "endpoint options";
    static final String HEADERS = "component headers";

    private static final String TABLE = "[width=\"100%\",cols=\"2,5,^1,2\",options=\"header\"]\n|===\n"
                                        + "| Name | Description | Default | Type\n";

    private final ComponentMetadata metadata;

    AsciidocReference(ComponentMetadata metadata) {
        this.metadata = metadata;
    }

    /** The page with its header (up to the first blank line) and marked sections regenerated. */
    String update(String page) {
        String body = page.substring(page.indexOf("\n\n") + 1);
        return Sections.replace(Sections.replace(Sections.replace(header() + body, start(COMPONENT), end(COMPONENT),
                componentOptions()), start(ENDPOINT), end(ENDPOINT), endpointOptions()), start(HEADERS), end(HEADERS),
                headers());
    }

    static String start(String section) {
        return "// " + section + ": START";
    }

    static String end(String section) {
        return "// " + section + ": END";
    }

    private String header() {
        boolean consumer = !Boolean.parseBoolean(metadata.get("producerOnly"));
        boolean producer = !Boolean.parseBoolean(metadata.get("consumerOnly"));
        return "= " + metadata.get("title") + " Component\n"
               + ":doctitle: " + metadata.get("title") + "\n"
               + ":shortname: " + metadata.get("scheme") + "\n"
               + ":artifactid: " + metadata.get("artifactId") + "\n"
               + ":description: " + metadata.get("description") + "\n"
               + ":since: " + metadata.get("firstVersion").replaceAll("\\.\\d+$", "") + "\n"
               + ":supportlevel: " + metadata.get("supportLevel") + "\n"
               + ":tabs-sync-option:\n"
               + ":component-header: " + (consumer && producer ? "Both producer and consumer are supported"
                                          : consumer ? "Only consumer is supported" : "Only producer is supported")
               + "\n";
    }

    private String componentOptions() {
        return "== Component Options\n\nThe " + metadata.get("title") + " component supports "
               + metadata.componentOptions().size() + " options, which are listed below.\n\n"
               + table(metadata.componentOptions());
    }

    private String endpointOptions() {
        return "== Endpoint Options\n\nThe " + metadata.get("title") + " endpoint is configured using URI syntax:\n\n"
               + "----\n" + metadata.get("syntax") + "\n----\n\nwith the following path and query parameters:\n\n"
               + "=== Path Parameters (" + metadata.pathOptions().size() + " parameters)\n\n"
               + table(metadata.pathOptions()) + "\n"
               + "=== Query Parameters (" + metadata.queryOptions().size() + " parameters)\n\n"
               + table(metadata.queryOptions());
    }

    private String headers() {
        return "== Message Headers\n\nThe " + metadata.get("title") + " component supports "
               + metadata.headers().size() + " message headers, which are listed below.\n\n"
               + table(metadata.headers());
    }

    private static String table(List<Option> options) {
        StringBuilder table = new StringBuilder(TABLE);
        for (Option option : options) {
            String group = option.group() == null || option.group().isEmpty() ? "" : " (" + option.group() + ")";
            table.append("\n| *").append(option.name()).append('*').append(group)
                    .append("\n| ").append(escape(Descriptions.of(option, "*", "`")))
                    .append("\n| ").append(option.defaultValue() == null ? "" : "`" + escape(option.defaultValue())
                                                                                   + "`")
                    .append("\n| ").append(Descriptions.simpleType(option)).append('\n');
        }
        return table.append("|===\n").toString();
    }

    /** Table cells split at |; an attribute reference such as {queueName} would be replaced. */
    private static String escape(String text) {
        return text.replace("|", "\\|").replace("{", "\\{");
    }
}
