package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

/**
 * One consumer's way of claiming from its queue: it claims through the queue, and when there is nothing to claim
 * it waits for messages without polling Redis in a tight loop. Each consumer has its own; it is used by one thread.
 */
public interface Claimer extends AutoCloseable {

    /**
     * Claims up to {@code max} messages under a lease; when there are none, waits at most {@code maxWait} for
     * some to arrive. May return no deliveries.
     */
    List<Delivery> claim(int max, Duration maxWait);

    /** Ends a wait now, or as soon as the claimer can: the consumer is stopping. A claim may then fail. */
    void wakeUp();

    @Override
    void close();
}
