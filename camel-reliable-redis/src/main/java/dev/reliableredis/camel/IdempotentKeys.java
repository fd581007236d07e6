package dev.reliableredis.camel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import dev.reliableredis.queue.keys.QueueNames;

/**
 * The Redis keys of one idempotent repository: {@code <keyPrefix>:{<name>}:seen:<key>}. The hash tag puts all of
 * them in one Cluster slot; the part {@code seen:} keeps them apart from the keys of a queue of the same name, so that
 * a message key such as {@code ready} cannot be a queue's list and {@link #ownKeysPattern()} matches no queue key.
 */
final class IdempotentKeys {

    /**
     * Longer keys are stored as their SHA-256, so that a message key of any length costs Redis at most about this
     * much; Camel gives no bound on the keys an expression yields.
     */
    static final int MAX_STORED_KEY_BYTES = 512;
    /** Marks a hashed key; a short key that starts with it is hashed too, so that it cannot pose as a hashed one. */
    static final String HASHED = "sha256:";

    private final String base;

    IdempotentKeys(String keyPrefix, String name) {
        this.base = QueueNames.validatePrefix(keyPrefix) + ":{" + validateName(name) + "}:seen:";
    }

    /** Repository names follow the queue name rules: they are the hash tag. */
    static String validateName(String name) {
        try {
            return QueueNames.validate(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("Queue name", "Repository name"));
        }
    }

    /** The Redis key that remembers this message key; any text is allowed. */
    byte[] of(String key) {
        if (key == null) {
            throw new IllegalArgumentException("The idempotent key must not be null");
        }
        byte[] text = key.getBytes(StandardCharsets.UTF_8);
        String stored = text.length > MAX_STORED_KEY_BYTES || key.startsWith(HASHED) ? HASHED + sha256(text) : key;
        return (base + stored).getBytes(StandardCharsets.UTF_8);
    }

    /** The SCAN MATCH pattern of this repository's keys and no others: the base is matched literally. */
    byte[] ownKeysPattern() {
        return (globLiteral(base) + "*").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The text escaped for a Redis glob pattern. Prefix and name allow none of the special characters today; the
     * escape keeps clear() confined to its own keys should those rules ever widen.
     */
    static String globLiteral(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static String sha256(byte[] text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
