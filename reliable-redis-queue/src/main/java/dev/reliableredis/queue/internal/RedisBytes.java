package dev.reliableredis.queue.internal;

import java.nio.charset.StandardCharsets;

/** Conversions between Java values and the byte arrays of script arguments and replies. */
public final class RedisBytes {

    private static final byte[] EMPTY = new byte[0];
    /**
     * The arguments most messages carry (a delay, time to live or priority of 0 to 9), encoded once: a call's
     * arguments are read, never written, by Lettuce.
     */
    private static final byte[][] DIGITS = new byte[10][];

    static {
        for (int n = 0; n < DIGITS.length; n++) {
            DIGITS[n] = new byte[] {(byte) ('0' + n)};
        }
    }

    private RedisBytes() {
    }

    public static byte[] bytes(String s) {
        return s.isEmpty() ? EMPTY : s.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] bytes(long n) {
        return n >= 0 && n < DIGITS.length ? DIGITS[(int) n] : bytes(Long.toString(n));
    }

    /** A bulk reply as text, or null for a nil reply. */
    public static String text(Object reply) {
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }
}
