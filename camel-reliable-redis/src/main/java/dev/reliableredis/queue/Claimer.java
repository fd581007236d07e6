package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

/**
 * One consumer thread's way of claiming from its queue: it claims through the queue as its {@link Claimant}, and
 * when there is nothing to claim it waits for messages without polling Redis in a tight loop. Each consumer thread
 * has its own; it is used by that thread only (but {@link #wakeUp()} and {@link #close()} come from the stopping
 * thread).
 */
public interface Claimer extends AutoCloseable {

    /**
     * Claims up to {@code max} messages under a lease, no more than the claimant's share; when there are none, waits
     * at most {@code maxWait} for some to arrive. Returns what it claimed, possibly nothing.
     */
    List<Delivery> claim(int max, Duration maxWait);

    /** Ends a wait now, or as soon as the claimer can: the consumer is stopping. A claim may then fail. */
    void wakeUp();

    @Override
    void close();
}
