package dev.reliableredis.queue;

import java.time.Duration;

/**
 * The consumer-side settings a queue's scripts need, each value and combination checked once, here. Names match the
 * component's options, so that a bad value is reported by the name the user wrote; a policy is an enum whose
 * {@code value()} is the option's value, which the scripts receive as it is. Made with {@link #builder()}, from the
 * contract's defaults, or {@link #toBuilder()}.
 *
 * @param maxInflight the most messages of the queue (of a stream group) in flight at once across all its consumers;
 *                    0: no cap
 * @param rateLimit   the most messages claimed per period across all its consumers
 * @param expiredMessages what becomes of a message whose time to live passed before a claim took it
 * @param priorityMode list mode: how claims take the priority levels
 * @param groupOnDeadLetter list mode: whether a dead-lettered message of a group keeps its group waiting until it is
 *                    redriven or its dead letter is consumed or purged
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
        ExpiredMessages expiredMessages,
        PriorityMode priorityMode,
        GroupOnDeadLetter groupOnDeadLetter) {

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
        given("expiredMessages", expiredMessages);
        given("priorityMode", priorityMode);
        given("groupOnDeadLetter", groupOnDeadLetter);
    }

    /** The contract's defaults. */
    public static QueueSettings defaults() {
        return new QueueSettings(Duration.ofSeconds(30), 3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 100,
                Duration.ofMinutes(5), 0, RateLimit.NONE, ExpiredMessages.DEAD_LETTER, PriorityMode.WEIGHTED,
                GroupOnDeadLetter.CONTINUE);
    }

    /** A builder that starts from the contract's defaults. */
    public static Builder builder() {
        return new Builder(defaults());
    }

    /** A builder that starts from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A message is delivered at most this many times before it is dead-lettered. */
    public long maxDeliveries() {
        return maxRetries + 1L;
    }

    private static void given(String option, Enum<?> value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " must be given");
        }
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

    /** What becomes of a message whose time to live passed before a claim took it (option expiredMessages). */
    public enum ExpiredMessages implements OptionValue {
        DEAD_LETTER, DROP;

        /** The policy the option's value names; IllegalArgumentException naming the option otherwise. */
        public static ExpiredMessages of(String value) {
            return Options.parse("expiredMessages", value, values());
        }
    }

    /** How claims take the priority levels (option priorityMode): weighted round-robin, or the highest first. */
    public enum PriorityMode implements OptionValue {
        WEIGHTED, STRICT;

        /** The mode the option's value names; IllegalArgumentException naming the option otherwise. */
        public static PriorityMode of(String value) {
            return Options.parse("priorityMode", value, values());
        }
    }

    /** Whether a dead-lettered message of a group keeps its group waiting (option groupOnDeadLetter). */
    public enum GroupOnDeadLetter implements OptionValue {
        CONTINUE, BLOCK;

        /** The policy the option's value names; IllegalArgumentException naming the option otherwise. */
        public static GroupOnDeadLetter of(String value) {
            return Options.parse("groupOnDeadLetter", value, values());
        }
    }

    /** Builds settings; {@link #build()} checks them. */
    public static final class Builder {
        private Duration visibilityTimeout;
        private int maxRetries;
        private Duration retryDelay;
        private double retryBackoffMultiplier;
        private Duration maxRetryDelay;
        private int reaperBatchSize;
        private Duration idempotencyWindow;
        private int maxInflight;
        private RateLimit rateLimit;
        private ExpiredMessages expiredMessages;
        private PriorityMode priorityMode;
        private GroupOnDeadLetter groupOnDeadLetter;

        private Builder(QueueSettings from) {
            visibilityTimeout = from.visibilityTimeout;
            maxRetries = from.maxRetries;
            retryDelay = from.retryDelay;
            retryBackoffMultiplier = from.retryBackoffMultiplier;
            maxRetryDelay = from.maxRetryDelay;
            reaperBatchSize = from.reaperBatchSize;
            idempotencyWindow = from.idempotencyWindow;
            maxInflight = from.maxInflight;
            rateLimit = from.rateLimit;
            expiredMessages = from.expiredMessages;
            priorityMode = from.priorityMode;
            groupOnDeadLetter = from.groupOnDeadLetter;
        }

        public Builder visibilityTimeout(Duration value) {
            visibilityTimeout = value;
            return this;
        }

        public Builder maxRetries(int value) {
            maxRetries = value;
            return this;
        }

        public Builder retryDelay(Duration value) {
            retryDelay = value;
            return this;
        }

        public Builder retryBackoffMultiplier(double value) {
            retryBackoffMultiplier = value;
            return this;
        }

        public Builder maxRetryDelay(Duration value) {
            maxRetryDelay = value;
            return this;
        }

        public Builder reaperBatchSize(int value) {
            reaperBatchSize = value;
            return this;
        }

        public Builder idempotencyWindow(Duration value) {
            idempotencyWindow = value;
            return this;
        }

        public Builder maxInflight(int value) {
            maxInflight = value;
            return this;
        }

        public Builder rateLimit(RateLimit value) {
            rateLimit = value;
            return this;
        }

        public Builder expiredMessages(ExpiredMessages value) {
            expiredMessages = value;
            return this;
        }

        public Builder priorityMode(PriorityMode value) {
            priorityMode = value;
            return this;
        }

        public Builder groupOnDeadLetter(GroupOnDeadLetter value) {
            groupOnDeadLetter = value;
            return this;
        }

        /** The settings, checked (IllegalArgumentException naming the option and its value). */
        public QueueSettings build() {
            return new QueueSettings(visibilityTimeout, maxRetries, retryDelay, retryBackoffMultiplier, maxRetryDelay,
                    reaperBatchSize, idempotencyWindow, maxInflight, rateLimit, expiredMessages, priorityMode,
                    groupOnDeadLetter);
        }
    }
}
