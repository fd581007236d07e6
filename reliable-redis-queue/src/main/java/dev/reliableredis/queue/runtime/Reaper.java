package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.ReliableQueue;

/**
 * Runs a queue's housekeeping (expired leases, due delayed messages and retries, old acked ids) on a thread of its
 * own. Each reaper call is bounded, so that Redis stays responsive; a round keeps calling while a call reports a
 * full batch, for at most one {@code reaperInterval}, and the next round starts at once while work is left, else
 * after {@code reaperInterval}. Housekeeping so keeps pace with any rate instead of moving one batch per interval.
 */
public final class Reaper {

    private final ReliableQueue queue;
    private final Duration interval;
    private final ScheduledExecutorService thread;
    private final OutageReport outage;

    public Reaper(ReliableQueue queue, Duration interval, ScheduledExecutorService thread, OutageReport outage) {
        this.queue = queue;
        this.interval = interval;
        this.thread = thread;
        this.outage = outage;
    }

    public void start() {
        schedule(Duration.ZERO);
    }

    private void round() {
        long deadline = System.nanoTime() + interval.toNanos();
        boolean more = false;
        try {
            do {
                more = queue.reap().more();
            } while (more && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted());
            outage.succeeded("reap");
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            outage.failed("reap", e);
        }
        schedule(more ? Duration.ZERO : interval);
    }

    private void schedule(Duration delay) {
        try {
            thread.schedule(this::round, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the consumer stopped
        }
    }
}
