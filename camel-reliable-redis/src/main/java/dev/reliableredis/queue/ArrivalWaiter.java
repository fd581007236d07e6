package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

/**
 * How one idle consumer waits for messages without polling Redis in a tight loop. Each consumer has its own;
 * it is used by one thread.
 */
public interface ArrivalWaiter extends AutoCloseable {

    /** Taken before each claim: an arrival after the mark ends the next wait at once. */
    long mark();

    /**
     * Waits at most {@code max} for messages to arrive after {@code mark}. A waiter may claim what arrives itself
     * (at most {@code maxMessages}) and return it; else it returns an empty list and the consumer claims again.
     */
    List<Delivery> await(long mark, int maxMessages, Duration max) throws InterruptedException;

    /** Ends waits now, or as soon as the waiter can: the consumer is stopping. */
    void wakeUp();

    @Override
    void close();
}
