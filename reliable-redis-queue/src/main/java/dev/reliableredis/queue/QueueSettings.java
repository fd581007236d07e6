package dev.reliableredis.queue;

import java.time.Duration;


/**
 * The consumer-side settings a queue's scripts need. Names match the component's options,
 * so that a bad value is reported by the name the user wrote.
 *
 * @param maxInflight the most messages of the queue (of a stream group) in flight at once across all its consumers;
 *                    0: no cap
 * @param rateLimit   the most messages claimed per period across all its consumers
 * @param dropExpired a message whose time to live passed before a claim took it is dropped; false: it is
 *                    dead-lettered
 * @param strictPriority list mode: claims take the highest priority level first; false: the levels are served by
 *                    weighted round-robin
 * @param blockGroupOnDeadLetter list mode: a dead-lettered message of a group keeps its group waiting until it is
 *                    redriven or its dead letter is consumed or purged; false: the group goes on without it
 */
public record QueueSettings(
        Duration visibilityTimeout,
        int maxRetries,
        Duration retryDelay,
        double retryBackoffMultiplier,
        Duration maxRetryDelay,
        int reaperBatchSize,
        Duration idempotencyWindow,
        int maxInflight,
        RateLimit rateLimit,
        boolean dropExpired,
        boolean strictPriority,
        boolean blockGroupOnDeadLetter) {

    /** Far beyond any use, and low enough that the deliveries it allows (one more) stay an int. */
    public static final int MAX_RETRIES = 1_000_000;

    public QueueSettings {
        positive("visibilityTimeout", visibilityTimeout);
        if (maxRetries < 0 || maxRetries > MAX_RETRIES) {
            throw new IllegalArgumentException("maxRetries must be between 0 and " + MAX_RETRIES + ", was "
                                               + maxRetries);
        }
        notNegative("retryDelay", retryDelay);
        if (!(retryBackoffMultiplier >= 1.0) || Double.isInfinite(retryBackoffMultiplier)) {
            throw new IllegalArgumentException(
                    "retryBackoffMultiplier must be a number of at least 1.0, was " + retryBackoffMultiplier);
        }
        notNegative("maxRetryDelay", maxRetryDelay);
        if (maxRetryDelay.compareTo(retryDelay) < 0) {
            throw new IllegalArgumentException("maxRetryDelay (" + maxRetryDelay.toMillis()
                    + " ms) must not be less than retryDelay (" + retryDelay.toMillis() + " ms)");
        }
        if (reaperBatchSize < 1 || reaperBatchSize > ReliableQueue.MAX_BATCH) {
            throw new IllegalArgumentException("reaperBatchSize must be between 1 and " + ReliableQueue.MAX_BATCH
                                               + ", was " + reaperBatchSize);
        }
        notNegative("idempotencyWindow", idempotencyWindow);
        if (maxInflight < 0) {
            throw new IllegalArgumentException("maxInflight must be 0 (no cap) or more, was " + maxInflight);
        }
        if (rateLimit == null) {
            throw new IllegalArgumentException("rateLimit must be given; RateLimit.NONE for no limit");
        }
    }

    /** The settings without a cap on the messages in flight or a rate limit. */
    public QueueSettings(Duration visibilityTimeout, int maxRetries, Duration retryDelay, double retryBackoffMultiplier,
            Duration maxRetryDelay, int reaperBatchSize, Duration idempotencyWindow) {
        this(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay, reaperBatchSize,
                idempotencyWindow, 0, RateLimit.NONE, false, false, false);
    }

    /** The same settings with another cap on the messages in flight. */
    public QueueSettings withMaxInflight(int cap) {
        return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                reaperBatchSize, idempotencyWindow, cap, rateLimit, dropExpired, strictPriority, blockGroupOnDeadLetter);
    }

    /** The same settings with another rate limit. */
    public QueueSettings withRateLimit(RateLimit limit) {
        return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                reaperBatchSize, idempotencyWindow, maxInflight, limit, dropExpired, strictPriority, blockGroupOnDeadLetter);
    }

    /** The same settings, dropping expired messages ({@code true}) or dead-lettering them. */
    public QueueSettings withDropExpired(boolean drop) {
        return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                reaperBatchSize, idempotencyWindow, maxInflight, rateLimit, drop, strictPriority, blockGroupOnDeadLetter);
    }

    /** The same settings, taking the highest priority level first ({@code true}) or by weighted round-robin. */
    public QueueSettings withStrictPriority(boolean strict) {
        return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                reaperBatchSize, idempotencyWindow, maxInflight, rateLimit, dropExpired, strict, blockGroupOnDeadLetter);
    }

    /** The same settings, a dead-lettered message of a group blocking its group ({@code true}) or not. */
    public QueueSettings withBlockGroupOnDeadLetter(boolean block) {
        return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                reaperBatchSize, idempotencyWindow, maxInflight, rateLimit, dropExpired, strictPriority, block);
    }

    /** The contract's defaults. */
    public static QueueSettings defaults() {
        return new QueueSettings(Duration.ofSeconds(30), 3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 100,
                Duration.ofMinutes(5));
    }

    /** A message is delivered at most this many times before it is dead-lettered. */
    public long maxDeliveries() {
        return maxRetries + 1L;
    }

    private static void positive(String option, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(option + " must be more than 0 ms, was " + millis(value));
        }
    }

    private static void notNegative(String option, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(option + " must be 0 ms or more, was " + millis(value));
        }
    }

    private static String millis(Duration value) {
        return value == null ? "null" : value.toMillis() + " ms";
    }
}
