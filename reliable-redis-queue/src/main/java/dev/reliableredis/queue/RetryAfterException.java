package dev.reliableredis.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a {@code runtime.QueueConsumer} handler that cannot run its message yet (a rate-limited API, a resource
 * not ready): the message is retried after the delay, and the delivery does not count as failed, as the header
 * {@code CamelReliableRedisRetryAfter} does in a Camel route. A delay longer than the consumer's maxRetryAfter is cut
 * to it.
 */
public class RetryAfterException extends Exception {

    private final Duration delay;

    public RetryAfterException(Duration delay) {
        super("retry after " + Objects.requireNonNull(delay, "delay").toMillis() + " ms");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("A retry-after delay cannot be negative, was " + delay);
        }
        this.delay = delay;
    }

    public Duration delay() {
        return delay;
    }
}
