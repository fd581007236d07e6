package dev.reliableredis.queue.runtime;

import java.util.List;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.redis.OneLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of one consumer thread: takes its next batch from its consumer's {@link JointClaim} (up to
 * {@code maxMessagesPerPoll} messages, no more than its share), holds every lease of the batch from the claim on,
 * so that waiting messages are extended as running ones are, and runs the deliveries one after the other on this
 * thread. A waiting delivery whose lease an extension found lost is skipped. Once stopped, the deliveries not started
 * yet are given back to the queue at once, without a delivery counted, unless the stop asked for the whole batch to
 * run first.
 */
public final class BatchLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchLoop.class);

    /** Runs one delivery; the lease is held, and the runner hands it on to be settled. */
    @FunctionalInterface
    public interface Runner {
        void run(Delivery delivery, int index, int size);
    }

    private final ReliableQueue queue;
    private final JointClaim claims;
    private final int thread;
    private final LeaseKeeper leases;
    private final Runner runner;
    private volatile boolean running = true;
    private volatile boolean finishBatch;
    /** Deliveries claimed and not started yet. */
    private volatile int waiting;

    /** Thread {@code thread} of the consumer whose threads claim through {@code claims}. */
    public BatchLoop(ReliableQueue queue, JointClaim claims, int thread, LeaseKeeper leases, Runner runner) {
        this.queue = queue;
        this.claims = claims;
        this.thread = thread;
        this.leases = leases;
        this.runner = runner;
    }

    @Override
    public void run() {
        try {
            while (running) {
                runBatch(claims.next(thread));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
     * {@code finishBatch} runs first. The claim under way is ended by its {@link JointClaim}'s stop.
     */
    public void stop(boolean finishBatch) {
        this.finishBatch = finishBatch;
        running = false;
    }

    /** Deliveries claimed and not started yet. */
    public int waiting() {
        return waiting;
    }
}
