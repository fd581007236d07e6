package dev.reliableredis.queue;

import java.time.Duration;

/**
 * How a delivery ended other than done: a failure and why, or a give-back the route asked for, due again after
 * {@code retryAfter}, which is no failure and uses up no retry (its delivery count still goes up when it is claimed
 * again).
 *
 * @param retryAfter null for a failure
 */
public record Failure(Lease lease, String reason, Duration retryAfter) {

    private static final String RETRY_AFTER = "retry after";

    public Failure {
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("A retry-after is 0 or more ms, not " + retryAfter.toMillis()
                    + " (message '" + lease.messageId() + "')");
        }
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
