package dev.reliableredis.queue.internal;

import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Travelling headers as JSON: an object keyed by header name, each value a pair {@code [type, text]} so it
 * comes back as the same Java type: {@code {"orderId":["Long","7"],"sig":["bytes","AAEC"]}}. Types are
 * String, Integer, Long, Double, Boolean and bytes (Base64). The text form keeps a Long exact for readers
 * whose JSON numbers are doubles. Only these types are ever created when reading: no Java deserialization.
 */
public final class HeaderCodec {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HeaderCodec() {
    }

    /** True for the Java types that can travel. */
    public static boolean isSupported(Object value) {
        return value instanceof String || value instanceof Integer || value instanceof Long
                || value instanceof Double || value instanceof Boolean || value instanceof byte[];
    }

    /** The JSON of the headers, or "" for none; values of other types are rejected. */
    public static String encode(Map<String, Object> headers) {
        if (headers.isEmpty()) {
            return "";
        }
        ObjectNode root = JSON.createObjectNode();
        headers.forEach((name, value) -> {
            ArrayNode pair = root.putArray(name);
            pair.add(typeOf(name, value));
            pair.add(value instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes) : value.toString());
        });
        return root.toString();
    }

    /** Reads headers written by {@link #encode}; throws IllegalArgumentException on anything else. */
    public static Map<String, Object> decode(String json) {
        if (json == null || json.isEmpty()) {
            return Map.of();
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Headers are not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("Headers must be a JSON object");
        }
        Map<String, Object> headers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            headers.put(field.getKey(), decodeValue(field.getKey(), field.getValue()));
        }
        return headers;
    }

    private static Object decodeValue(String name, JsonNode pair) {
        if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual() || !pair.get(1).isTextual()) {
            throw new IllegalArgumentException("Header '" + name + "' is not a [type, text] pair");
        }
        String text = pair.get(1).asText();
        try {
            return switch (pair.get(0).asText()) {
                case "String" -> text;
                case "Integer" -> Integer.valueOf(text);
                case "Long" -> Long.valueOf(text);
                case "Double" -> Double.valueOf(text);
                case "Boolean" -> Boolean.valueOf(text);
                case "bytes" -> Base64.getDecoder().decode(text);
                default -> throw new IllegalArgumentException(
                        "Header '" + name + "' has the unknown type '" + pair.get(0).asText() + "'");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Header '" + name + "' has a malformed value: " + e.getMessage());
        }
    }

    private static String typeOf(String name, Object value) {
        if (value instanceof byte[]) {
            return "bytes";
        }
        if (!isSupported(value)) {
            throw new IllegalArgumentException("Header '" + name + "' has the unsupported type "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        return value.getClass().getSimpleName();
    }
}
