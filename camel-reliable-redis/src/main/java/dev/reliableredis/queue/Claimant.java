package dev.reliableredis.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * Who claims, as the queue's fair share sees it: a claim takes at most max(1, ceil(ready ÷ live)) messages, where
 * live counts the claimants of the queue, in every JVM, that claimed within their {@code liveFor}. One consumer
 * thread is one claimant.
 *
 * @param id      unique among the queue's claimants
 * @param liveFor how long after a claim the claimant still counts as live: two of its poll timeouts, since an idle
 *                claimant claims at least once per poll timeout
 */
public record Claimant(String id, Duration liveFor) {

    /** A claim made outside a consumer (tests, tools): one claimant that counts for two seconds. */
    public static final Claimant DIRECT = new Claimant("direct", Duration.ofSeconds(2));

    public Claimant {
        Objects.requireNonNull(id, "id");
        if (liveFor == null || liveFor.toMillis() < 1) {
            throw new IllegalArgumentException("A claimant counts as live for at least 1 ms, not " + liveFor);
        }
    }

    /** Thread {@code thread} of the consumer {@code consumer}, which waits at most {@code pollTimeout} when idle. */
    public static Claimant thread(String consumer, int thread, Duration pollTimeout) {
        return new Claimant(consumer + "#" + thread, pollTimeout.multipliedBy(2));
    }
}
