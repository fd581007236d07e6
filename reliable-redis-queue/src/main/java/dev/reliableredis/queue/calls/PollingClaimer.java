package dev.reliableredis.queue.calls;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.WakeableSleep;

/**
 * Claims, and when nothing was there waits the whole {@code maxWait} before the next claim: for queues that give
 * no sign of arrivals (list-mode dead letters, which fall due by time).
 */
public final class PollingClaimer implements Claimer {

    private final IntFunction<List<Delivery>> claim;
    private final WakeableSleep sleep = new WakeableSleep();

    public PollingClaimer(IntFunction<List<Delivery>> claim) {
        this.claim = claim;
    }

    @Override
    public List<Delivery> claim(int max, Duration maxWait) {
        List<Delivery> deliveries = claim.apply(max);
        if (deliveries.isEmpty()) {
            sleep.sleep(maxWait);
        }
        return deliveries;
    }

    /** Claims for the first claimant: a queue without a sign of arrivals has no share to spread. */
    @Override
    public List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait) {
        List<List<Delivery>> parts = new ArrayList<>(Claimed.none(claimants.size()));
        parts.set(0, claim(maxEach, maxWait));
        return parts;
    }

    @Override
    public void wakeUp() {
        sleep.end();
    }

    @Override
    public void close() {
        wakeUp();
    }
}
