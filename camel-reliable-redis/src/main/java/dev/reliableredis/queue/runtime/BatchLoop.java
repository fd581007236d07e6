package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.CallBackoff;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.OneLine;
import dev.reliableredis.queue.ReliableQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of one consumer thread: claims a batch of up to {@code maxPerClaim} messages (no more than its share),
 * holds every lease of the batch from the claim on, so that waiting messages are extended as running ones are, and
 * runs the deliveries one after the other on this thread. A waiting delivery whose lease an extension found lost is
 * skipped. Once stopped, the deliveries not started yet are given back to the queue at once, without a delivery
 * counted, unless the stop asked for the whole batch to run first. A claim that fails is retried with backoff,
 * for as long as the loop runs.
 */
public final class BatchLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchLoop.class);

    /** Runs one delivery; the lease is held, and the runner hands it on to be settled. */
    @FunctionalInterface
    public interface Runner {
        void run(Delivery delivery, int index, int size);
    }

    /** What the loop tells about its claims. */
    public interface Events {
        /** A claim landed, with this many messages (0: there were none). */
        void claimSucceeded(int claimed);

        void claimFailed(RuntimeException cause);
    }

    private final ReliableQueue queue;
    private final Claimer claimer;
    private final LeaseKeeper leases;
    private final int maxPerClaim;
    private final Duration pollTimeout;
    private final Runner runner;
    private final Events events;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean finishBatch;
    /** Deliveries claimed and not started yet. */
    private volatile int waiting;

    public BatchLoop(ReliableQueue queue, Claimer claimer, LeaseKeeper leases, int maxPerClaim, Duration pollTimeout,
            Runner runner, Events events) {
        this.queue = queue;
        this.claimer = claimer;
        this.leases = leases;
        this.maxPerClaim = maxPerClaim;
        this.pollTimeout = pollTimeout;
        this.runner = runner;
        this.events = events;
    }

    @Override
    public void run() {
        int failures = 0;
        try {
            while (running) {
                List<Delivery> batch;
                try {
                    batch = claimer.claim(maxPerClaim, pollTimeout);
                    failures = 0;
                    events.claimSucceeded(batch.size());
                } catch (RuntimeException e) {
                    if (!running) {
                        // a claim cut short by the stop
                        return;
                    }
                    events.claimFailed(e);
                    stopping.await(CallBackoff.after(++failures).toMillis(), TimeUnit.MILLISECONDS);
                    continue;
                }
                runBatch(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            claimer.close();
        }
    }

    private void runBatch(List<Delivery> batch) {
        batch.forEach(delivery -> leases.hold(delivery.lease()));
        waiting = batch.size();
        for (int i = 0; i < batch.size(); i++) {
            if (!running && !finishBatch) {
                giveBack(batch.subList(i, batch.size()));
                break;
            }
            Delivery delivery = batch.get(i);
            waiting--;
            if (!leases.holds(delivery.lease())) {
                LOG.warn("Skipped message '{}' of queue '{}': its lease was lost while it waited behind its batch",
                        OneLine.of(delivery.messageId()), queue.name());
                continue;
            }
            runner.run(delivery, i, batch.size());
        }
        waiting = 0;
    }

    private void giveBack(List<Delivery> unstarted) {
        List<Lease> held = unstarted.stream().map(Delivery::lease).toList();
        try {
            queue.release(held);
        } catch (RuntimeException e) {
            LOG.warn("Could not give back {} unstarted messages of queue '{}'; they return when their leases expire",
                    held.size(), queue.name(), e);
        } finally {
            held.forEach(leases::drop);
        }
    }

    /**
     * Stops the loop: the exchange running now completes; the rest of the batch is given back, or with
     * {@code finishBatch} runs first. A claim under way ends as soon as its claimer can.
     */
    public void stop(boolean finishBatch) {
        this.finishBatch = finishBatch;
        running = false;
        stopping.countDown();
        claimer.wakeUp();
    }

    /** Closes the claimer now, cutting a claim that the stop did not end in time. */
    public void close() {
        claimer.close();
    }

    /** Deliveries claimed and not started yet. */
    public int waiting() {
        return waiting;
    }
}
