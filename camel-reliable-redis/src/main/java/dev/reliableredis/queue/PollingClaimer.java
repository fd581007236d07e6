package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Claims, and when nothing was there waits the whole {@code maxWait} before the next claim: for queues that give
 * no sign of arrivals (list-mode dead letters, which fall due by time).
 */
public final class PollingClaimer implements Claimer {

    private final IntFunction<List<Delivery>> claim;
    private boolean woken;

    public PollingClaimer(IntFunction<List<Delivery>> claim) {
        this.claim = claim;
    }

    @Override
    public List<Delivery> claim(int max, Duration maxWait) {
        List<Delivery> deliveries = claim.apply(max);
        if (deliveries.isEmpty()) {
            pause(maxWait);
        }
        return deliveries;
    }

    private synchronized void pause(Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        long left;
        try {
            while (!woken && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void wakeUp() {
        woken = true;
        notifyAll();
    }

    @Override
    public void close() {
        wakeUp();
    }
}
