package dev.reliableredis.queue;

import java.time.Duration;


/**
 * A queue-wide rate limit on claims: at most {@code permits} messages per {@code period} across all consumers, spread
 * evenly (one every period / permits), and at most {@code burst} at once; decided in the claim scripts with a generic
 * cell rate algorithm on the Redis clock (see includes/rate.lua).
 *
 * @param permits messages per period; 0: no limit
 * @param period  the period, at least 1 ms
 * @param burst   the most messages claimed at once, at least 1
 */
public record RateLimit(int permits, Duration period, int burst) {

    /** No limit. */
    public static final RateLimit NONE = new RateLimit(0, Duration.ofSeconds(1), 1);

    public RateLimit {
        if (permits < 0) {
            throw new IllegalArgumentException("rateLimit must allow 1 message or more per period, was " + permits);
        }
        if (period == null || period.toMillis() < 1) {
            throw new IllegalArgumentException("rateLimit's period must be 1 ms or more, was "
                                               + (period == null ? "null" : period.toMillis() + " ms"));
        }
        if (burst < 1 || burst > ReliableQueue.MAX_BATCH) {
            throw new IllegalArgumentException("rateLimitBurst must be between 1 and " + ReliableQueue.MAX_BATCH
                                               + ", was " + burst);
        }
    }

    public boolean isOn() {
        return permits > 0;
    }
}
