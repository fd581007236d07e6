package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;

/**
 * A claimer that runs a check before each claim, such as {@code ShardCount.check}, which is a no-op once it passed:
 * a consumer that started while Redis was down checks when Redis is back, before it claims anything. A check that
 * fails fails the claim.
 */
public final class CheckedClaimer implements Claimer {

    private final Runnable check;
    private final Claimer claimer;

    public CheckedClaimer(Runnable check, Claimer claimer) {
        this.check = check;
        this.claimer = claimer;
    }

    @Override
    public List<Delivery> claim(int max, Duration maxWait) {
        check.run();
        return claimer.claim(max, maxWait);
    }

    @Override
    public List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait) {
        check.run();
        return claimer.claim(claimants, maxEach, maxWait);
    }

    @Override
    public void wakeUp() {
        claimer.wakeUp();
    }

    @Override
    public void close() {
        claimer.close();
    }
}
