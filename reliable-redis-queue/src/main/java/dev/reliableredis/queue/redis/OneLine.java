package dev.reliableredis.queue.redis;

/**
 * A value that came from a message or from Redis (an id, a header, a group name, a failure text) as it goes into a
 * log line: every character that can break a line (LF, CR, NEL, U+2028, U+2029, vertical tab, form feed) and every
 * other control character written as an escape (a backslash and n, r or t, else u and four hex digits, as in Java), so
 * that the value cannot end the line and forge the next one.
 */
public final class OneLine {

    private OneLine() {
    }

    /** The value's text on one line; "null" for null. */
    public static String of(Object value) {
        String text = String.valueOf(value);
        if (text.chars().noneMatch(OneLine::escaped)) {
            return text;
        }
        StringBuilder line = new StringBuilder(text.length() + 16);
        text.chars().forEach(c -> {
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> line.append(escaped(c) ? String.format("\\u%04x", c) : String.valueOf((char) c));
            }
        });
        return line.toString();
    }

    /** Whether {@link #of} escapes the character: a control character or a line or paragraph separator. */
    public static boolean escaped(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
