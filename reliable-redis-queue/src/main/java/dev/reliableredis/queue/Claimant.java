package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

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
        if (id.isEmpty() || id.chars().anyMatch(Character::isWhitespace)) {
            // a claim passes its claimants' ids to Redis separated by spaces
            throw new IllegalArgumentException("A claimant id is not empty and has no white space, not '" + id + "'");
        }
        if (liveFor == null || liveFor.toMillis() < 1) {
            throw new IllegalArgumentException("A claimant counts as live for at least 1 ms, not " + liveFor);
        }
    }

    /** The claimants' ids separated by spaces, as the claim scripts take them. */
    public static String ids(List<Claimant> claimants) {
        return claimants.stream().map(Claimant::id).collect(Collectors.joining(" "));
    }

    /** How long after a claim for all of them each counts as live: the longest of their windows. */
    public static Duration liveFor(List<Claimant> claimants) {
        return claimants.stream().map(Claimant::liveFor).max(Duration::compareTo).orElseThrow();
    }

    /**
     * Wait {@code wait} of the consumer {@code consumer} (one per shard), which claims for its threads: its id names
     * the record of its last claim.
     */
    public static Claimant waiting(String consumer, int wait, Duration pollTimeout) {
        return new Claimant(consumer + "/wait" + wait, pollTimeout.multipliedBy(2));
    }

    /** Thread {@code thread} of the consumer {@code consumer}, which waits at most {@code pollTimeout} when idle. */
    public static Claimant thread(String consumer, int thread, Duration pollTimeout) {
        return new Claimant(consumer + "#" + thread, pollTimeout.multipliedBy(2));
    }
}
