package dev.reliableredis.queue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A claimer's wait on its own thread that a stopping consumer ends at once: for as long as a claim script said (the
 * rate limit), or a poll interval. Not a blocking command: Redis ends a blocked command's timeout only on its next
 * event-loop tick (100 ms at the default hz), far from the wait the script asked for.
 */
public final class WakeableSleep {

    private boolean ended;

    /** Sleeps for the duration; false when {@link #end} was called, before or during it, or the thread interrupted. */
    public synchronized boolean sleep(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        long left;
        try {
            while (!ended && (left = until - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !ended;
    }

    /** Ends the sleep under way and every later one. */
    public synchronized void end() {
        ended = true;
        notifyAll();
    }
}
