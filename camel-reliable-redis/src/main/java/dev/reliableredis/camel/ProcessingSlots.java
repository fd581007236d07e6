package dev.reliableredis.camel;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The consumer's processing threads as slots, so that it never claims a message no thread is free to start: the
 * poller claims at most as many messages as are free, takes one slot for each delivery it dispatches, and the
 * delivery's worker gives it back when the exchange is done.
 */
final class ProcessingSlots {

    private final int total;
    private int taken;

    ProcessingSlots(int total) {
        this.total = total;
    }

    /**
     * Waits at most {@code max} until at least {@code wanted} slots (or all of them) are free; returns how many are
     * free then, which may be fewer.
     */
    synchronized int awaitFree(int wanted, Duration max) throws InterruptedException {
        int needed = Math.min(wanted, total);
        long deadline = System.nanoTime() + max.toNanos();
        long left;
        while (total - taken < needed && (left = deadline - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return total - taken;
    }

    /** One delivery is dispatched. Only the poller takes, so slots it was told are free stay free. */
    synchronized void take() {
        taken++;
    }

    /** The delivery's exchange is done, or it was never started. */
    synchronized void release() {
        taken--;
        notifyAll();
    }
}
