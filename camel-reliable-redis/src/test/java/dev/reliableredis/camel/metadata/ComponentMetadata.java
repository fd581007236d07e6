package dev.reliableredis.camel.metadata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The component JSON that camel-component-maven-plugin generates from the annotations, read the way the Endpoint DSL
 * generation reads it: the one description of the options and headers that the DSL and the reference docs follow.
 */
record ComponentMetadata(Map<String, String> component, List<Option> componentOptions, List<Option> endpointOptions,
                         List<Option> headers) {

    /** Relative to the module, as Maven runs the tests. */
    static final Path JSON = Path.of("src/generated/resources/META-INF/dev/reliableredis/camel/reliable-redis.json");

    /** One option or header; absent fields are null, absent flags false, absent enums empty. */
    record Option(String name, String kind, String group, String label, boolean required, String javaType,
                  String type, String defaultValue, String description, List<String> enums, boolean secret, boolean autowired,
                  boolean deprecated, String constantName) {

        boolean labelled(String word) {
            return label != null && List.of(label.split(",")).contains(word);
        }
    }

    static ComponentMetadata load() throws IOException {
        JsonNode root = new ObjectMapper().readTree(JSON.toFile());
        Map<String, String> component = new java.util.LinkedHashMap<>();
        root.get("component").fields().forEachRemaining(f -> component.put(f.getKey(), f.getValue().asText()));
        return new ComponentMetadata(component, options(root.get("componentProperties")),
                options(root.get("properties")), options(root.get("headers")));
    }

    String get(String field) {
        return component.get(field);
    }

    List<Option> pathOptions() {
        return endpointOptions.stream().filter(o -> "path".equals(o.kind())).toList();
    }

    List<Option> queryOptions() {
        return endpointOptions.stream().filter(o -> "parameter".equals(o.kind())).toList();
    }

    private static List<Option> options(JsonNode properties) {
        List<Option> options = new ArrayList<>();
        if (properties == null) {
            return options;
        }
        properties.fields().forEachRemaining(f -> {
            JsonNode o = f.getValue();
            List<String> enums = new ArrayList<>();
            if (o.has("enum")) {
                o.get("enum").forEach(e -> enums.add(e.asText()));
            }
            options.add(new Option(f.getKey(), text(o, "kind"), text(o, "group"), text(o, "label"),
                    o.path("required").asBoolean(), text(o, "javaType"), text(o, "type"), text(o, "defaultValue"),
                    text(o, "description"), enums, o.path("secret").asBoolean(), o.path("autowired").asBoolean(),
                    o.path("deprecated").asBoolean(), text(o, "constantName")));
        });
        return options;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
