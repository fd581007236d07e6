package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

/**
 * A consumer's way of claiming from its queue: it claims through the queue as its own {@link Claimant}, or for
 * several claimants at once (the idle threads of a consumer), and when there is nothing to claim it waits for
 * messages without polling Redis in a tight loop. It is used by one thread at a time (but {@link #wakeUp()} and
 * {@link #close()} come from the stopping thread).
 */
public interface Claimer extends AutoCloseable {

    /**
     * Claims up to {@code max} messages under a lease for the claimer's own claimant, no more than its share; when
     * there are none, waits at most {@code maxWait} for some to arrive. Returns what it claimed, possibly nothing.
     */
    List<Delivery> claim(int max, Duration maxWait);

    /**
     * As {@link #claim(int, Duration)}, for each of {@code claimants} in one claim: returns one part per claimant
     * (see {@link ReliableQueue#claim(Claimant, List, int, ClaimId)}), all empty when nothing came.
     */
    List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait);

    /** Ends a wait now, or as soon as the claimer can: the consumer is stopping. A claim may then fail. */
    void wakeUp();

    @Override
    void close();
}
