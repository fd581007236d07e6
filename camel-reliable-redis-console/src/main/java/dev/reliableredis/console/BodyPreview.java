package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.reliableredis.queue.redis.OneLine;

/**
 * The start of a message body as text for the page: decoded as UTF-8 (bytes that are not UTF-8 become U+FFFD),
 * control characters and line separators other than LF and tab replaced too (those {@link OneLine} escapes in a
 * log line), at most {@link #MAX_CHARACTERS} characters. Not for a log line: a logged value goes through
 * {@link OneLine#of}, which keeps no line break at all.
 *
 * @param text      the preview
 * @param truncated whether the body goes on
 */
record BodyPreview(String text, boolean truncated) {

    static final int MAX_CHARACTERS = 200;
    /** A UTF-8 character takes at most 4 bytes: this many always hold the characters shown. */
    private static final int MAX_BYTES = 4 * MAX_CHARACTERS;

    /** The preview of a body, or, for a stream entry another program wrote, of its fields as a JSON object. */
    static BodyPreview of(byte[] body, Map<String, String> fields) {
        if (fields != null) {
            return ofText(json(fields));
        }
        String decoded = new String(body, 0, Math.min(body.length, MAX_BYTES), StandardCharsets.UTF_8);
        BodyPreview preview = ofText(decoded);
        return body.length > MAX_BYTES && !preview.truncated() ? new BodyPreview(preview.text(), true) : preview;
    }

    static BodyPreview ofText(String text) {
        boolean truncated = text.codePointCount(0, text.length()) > MAX_CHARACTERS;
        String shown = truncated ? text.substring(0, text.offsetByCodePoints(0, MAX_CHARACTERS)) : text;
        StringBuilder clean = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> clean.appendCodePoint(
                OneLine.escaped(c) && c != '\n' && c != '\t' ? '\uFFFD' : c));
        return new BodyPreview(clean.toString(), truncated);
    }

    private static String json(Map<String, String> fields) {
        try {
            return Responses.JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the fields of an entry as JSON", e);
        }
    }
}
