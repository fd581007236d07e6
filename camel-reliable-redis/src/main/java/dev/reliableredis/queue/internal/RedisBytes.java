package dev.reliableredis.queue.internal;

import java.nio.charset.StandardCharsets;

/** Conversions between Java values and the byte arrays of script arguments and replies. */
public final class RedisBytes {

    private RedisBytes() {
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] bytes(long n) {
        return bytes(Long.toString(n));
    }

    /** A bulk reply as text, or null for a nil reply. */
    public static String text(Object reply) {
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }
}
