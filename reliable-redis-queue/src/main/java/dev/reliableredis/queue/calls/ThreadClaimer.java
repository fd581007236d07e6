package dev.reliableredis.queue.calls;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;

/**
 * The claimer of one consumer thread: it claims as the thread's {@link Claimant}, with the thread's {@link ClaimId},
 * and a claim for the thread alone is a claim for a list of that one claimant.
 */
public abstract class ThreadClaimer implements Claimer {

    protected final Claimant claimant;
    protected final ClaimId claimId;

    protected ThreadClaimer(Claimant claimant, ClaimId claimId) {
        this.claimant = claimant;
        this.claimId = claimId;
    }

    @Override
    public final List<Delivery> claim(int max, Duration maxWait) {
        return claim(List.of(claimant), max, maxWait).get(0);
    }
}
