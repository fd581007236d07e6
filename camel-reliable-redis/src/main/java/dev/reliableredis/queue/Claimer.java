package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One consumer's way of claiming from its queue: it claims through the queue, and when there is nothing to claim
 * it waits for messages without polling Redis in a tight loop. Each consumer has its own; it is used by one thread.
 */
public interface Claimer extends AutoCloseable {

    /**
     * Claims up to {@code max} messages under a lease; when there are none, waits at most {@code maxWait} for
     * some to arrive. Hands what it claimed (possibly nothing) to {@code start} as soon as Redis answers, which may be
     * on a Redis I/O thread, so {@code start} must neither block nor call Redis and wait; returns what {@code start}
     * returned: the deliveries it did not start.
     */
    List<Delivery> claim(int max, Duration maxWait, UnaryOperator<List<Delivery>> start);

    /** Ends a wait now, or as soon as the claimer can: the consumer is stopping. A claim may then fail. */
    void wakeUp();

    @Override
    void close();
}
