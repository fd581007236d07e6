package dev.reliableredis.camel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.LeaseKeeper;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.SettlementBatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles the deliveries of one consumer. A delivery's lease is held, and extended on a timer, from the start of
 * its exchange until Redis has settled it; acks and nacks go to Redis in batches; a settlement that does not reach
 * Redis (timeout, failover, connection reset) is retried with backoff for as long as the lease is held, so a
 * completed exchange is not redelivered because of a blip. What Redis refused is logged and counted.
 */
final class Settler {

    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);
    private static final int BATCH = 500;

    private final String queue;
    private final LeaseKeeper leases;
    private final SettlementBatcher batcher;
    private final ScheduledExecutorService timer;
    private final OutageReport outage;
    private final AtomicLong refused = new AtomicLong();
    /** Settlements on their way or waiting for a retry; guarded by this. */
    private int unsettled;

    /**
     * @param sender runs the batched script calls, one at a time
     * @param timer  runs lease extensions and settlement retries
     */
    Settler(ReliableQueue queue, Executor sender, ScheduledExecutorService timer, OutageReport outage) {
        this.queue = queue.name();
        this.leases = new LeaseKeeper(queue);
        this.batcher = new SettlementBatcher(queue, sender, BATCH);
        this.timer = timer;
        this.outage = outage;
    }

    /** The delivery's exchange starts: its lease is held from now on. */
    void hold(Lease lease) {
        leases.hold(lease);
    }

    void ack(Lease lease) {
        start(lease);
        settle(lease, null, 0);
    }

    void nack(Lease lease, String reason) {
        start(lease);
        settle(lease, reason, 0);
    }

    private void start(Lease lease) {
        leases.settling(lease);
        synchronized (this) {
            unsettled++;
        }
    }

    private void settle(Lease lease, String failureReason, int failedAttempts) {
        CompletableFuture<Settled> sent = failureReason == null
                ? batcher.ack(lease)
                : batcher.nack(new Failure(lease, failureReason));
        sent.whenComplete((result, error) -> {
            if (error == null) {
                outage.succeeded("settle");
                settled(lease, failureReason == null ? "ack" : "nack", result, failedAttempts);
            } else {
                outage.failed("settle", error);
                retry(lease, failureReason, failedAttempts + 1);
            }
        });
    }

    private void retry(Lease lease, String failureReason, int failedAttempts) {
        if (!leases.holds(lease)) {
            end(lease);
            LOG.warn("Could not {} message '{}' of queue '{}' before its lease ended; unless an attempt whose answer "
                     + "was lost carried it out, the message is delivered again", failureReason == null ? "ack" : "nack",
                    lease.messageId(), queue);
            return;
        }
        try {
            timer.schedule(() -> settle(lease, failureReason, failedAttempts),
                    Backoff.after(failedAttempts).toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            end(lease);
            LOG.warn("Gave up settling message '{}' of queue '{}': the consumer stopped; it is delivered again when "
                     + "its lease expires", lease.messageId(), queue);
        }
    }

    private void settled(Lease lease, String operation, Settled result, int failedAttempts) {
        end(lease);
        if (result == Settled.REFUSED) {
            refused.incrementAndGet();
            if (failedAttempts == 0) {
                LOG.warn("The {} of message '{}' of queue '{}' was refused: its lease had expired and the message was "
                         + "returned or claimed again", operation, lease.messageId(), queue);
            } else {
                LOG.warn("The retried {} of message '{}' of queue '{}' was refused: an earlier attempt whose answer "
                         + "was lost carried it out, or its lease had expired", operation, lease.messageId(), queue);
            }
        } else if (result == Settled.DEAD_LETTERED) {
            LOG.debug("Message '{}' of queue '{}' moved to the dead letters", lease.messageId(), queue);
        }
    }

    private void end(Lease lease) {
        leases.drop(lease);
        synchronized (this) {
            unsettled--;
            notifyAll();
        }
    }

    /** Extends every held lease; logs the leases of running exchanges that were lost. */
    void extendLeases() {
        try {
            List<Lease> lost = leases.extendAll();
            outage.succeeded("extend");
            for (Lease lease : lost) {
                LOG.warn("The lease of message '{}' of queue '{}' was lost before its exchange finished; the message "
                         + "may be processed twice", lease.messageId(), queue);
            }
        } catch (RuntimeException e) {
            outage.failed("extend", e);
        }
    }

    /** Waits until every settlement under way has landed or ended, at most until the deadline (System.nanoTime). */
    synchronized boolean awaitSettled(long deadlineNanos) throws InterruptedException {
        long left;
        while (unsettled > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return unsettled == 0;
    }

    /** Settlements Redis refused because the lease had already expired and moved on. */
    long refusedCount() {
        return refused.get();
    }

    /** Deliveries whose lease is held: being processed, or settling. */
    int heldCount() {
        return leases.size();
    }
}
