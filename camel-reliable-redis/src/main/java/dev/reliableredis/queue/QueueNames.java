package dev.reliableredis.queue;

import java.util.regex.Pattern;

/** Checks queue names: they become part of Redis keys and of the cluster hash tag. */
public final class QueueNames {

    public static final int MAX_LENGTH = 200;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:-]+");

    private QueueNames() {
    }

    /** Returns the name, or throws naming the first character that is not allowed. */
    public static String validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Queue name must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Queue name is " + name.length() + " characters long; at most "
                    + MAX_LENGTH + " are allowed (queue name starts with '" + name.substring(0, 20) + "')");
        }
        if (!ALLOWED.matcher(name).matches()) {
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!ALLOWED.matcher(String.valueOf(c)).matches()) {
                    throw new IllegalArgumentException("Queue name '" + name + "' contains the character '" + c
                            + "' at position " + i + "; allowed are letters, digits and . _ : -");
                }
            }
        }
        return name;
    }

    /**
     * The start of every key of a queue, {@code <keyPrefix>:{<queue>}:}: the hash tag puts all of them in one Redis
     * Cluster slot, so every script can touch all of them.
     */
    public static String keyBase(String keyPrefix, String queue) {
        return validatePrefix(keyPrefix) + ":{" + validate(queue) + "}:";
    }

    /** Key prefixes follow the same rules, so that a key cannot break out of its hash tag. */
    public static String validatePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty() || !ALLOWED.matcher(prefix).matches()) {
            throw new IllegalArgumentException("keyPrefix '" + prefix
                    + "' is not allowed; use letters, digits and . _ : - only");
        }
        return prefix;
    }
}
