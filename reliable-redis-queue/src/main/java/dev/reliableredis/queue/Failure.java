package dev.reliableredis.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * How a delivery ended other than done: a failure and why, or a give-back the route asked for, due again after
 * {@code retryAfter}, which is no failure and uses up no retry (its delivery count still goes up when it is claimed
 * again).
 *
 * @param retryAfter null for a failure
 */
public record Failure(Lease lease, String reason, Duration retryAfter) {

    /**
     * The longest failure text kept, in UTF-8 bytes: an exception's message can carry a whole body, and the text is
     * stored with every dead letter and sent back in a failed request's reply.
     */
    public static final int MAX_REASON_BYTES = 1024;
    private static final String RETRY_AFTER = "retry after";
    private static final String CUT = "…";

    public Failure {
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("A retry-after is 0 or more ms, not " + retryAfter.toMillis()
                    + " (message '" + lease.messageId() + "')");
        }
        reason = reason == null ? null : cut(reason);
    }

    /** The text as kept: at most {@link #MAX_REASON_BYTES} of UTF-8, cut between characters, ending in … when cut. */
    public static String cut(String text) {
        // a char is at most 3 bytes of UTF-8 (a surrogate pair 4 for its two)
        if (text.length() * 3 <= MAX_REASON_BYTES) {
            return text;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_REASON_BYTES) {
            return text;
        }
        int end = MAX_REASON_BYTES - CUT.getBytes(StandardCharsets.UTF_8).length;
        while ((utf8[end] & 0xC0) == 0x80) {
            end--; // back to the first byte of the character that does not fit
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8) + CUT;
    }

    /** A failed delivery. */
    public Failure(Lease lease, String reason) {
        this(lease, reason, null);
    }

    /** A delivery given back, due again after {@code delay}, not counted as failed. */
    public static Failure retryAfter(Lease lease, Duration delay) {
        return new Failure(lease, RETRY_AFTER, delay);
    }

    /** The nack scripts' retry-after argument: ms, or -1 for a failure. */
    public long retryAfterMillis() {
        return retryAfter == null ? -1 : retryAfter.toMillis();
    }
}
