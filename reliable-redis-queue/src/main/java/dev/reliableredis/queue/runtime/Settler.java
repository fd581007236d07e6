package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.redis.CallBackoff;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.ReplicaWait;
import dev.reliableredis.queue.runtime.QueueActivity.Count;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles the deliveries of one consumer. A delivery's lease is held, and extended on a timer, from its claim until
 * Redis has settled it; acks and nacks go to Redis in batches; a settlement that does not reach
 * Redis (timeout, failover, connection reset) is retried with backoff for as long as the lease is held, so a
 * completed exchange is not redelivered because of a blip. An ack that Redis refuses in a way no retry cures (an ACL
 * refusal, a wrong-typed key, a script error: see {@link QueueException#isRefusedForGood}) fails its delivery with
 * that refusal instead, in a nack of its own, so that nothing of a refused hand-off is sent. What Redis refused is
 * logged and counted, and so are acks that waitReplicas asked to wait for and too few replicas confirmed.
 */
public final class Settler {

    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);
    private static final int BATCH = 500;
    private static final long AWAIT_STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String queue;
    private final LeaseKeeper leases;
    private final SettlementBatcher batcher;
    private final ScheduledExecutorService timer;
    private final OutageReport outage;
    private final QueueActivity activity;
    private final Duration maxRetryAfter;
    /** Settlements whose last attempt failed: the settle activity fails while there are any. Guarded by this. */
    private int failing;
    private volatile boolean stopped;

    /**
     * @param leases   the leases of the consumer's deliveries, held from their claim on
     * @param timer    runs lease extensions and settlement retries
     * @param replicas      what acks wait for
     * @param maxRetryAfter the longest retry-after a route may ask for
     */
    public Settler(ReliableQueue queue, LeaseKeeper leases, ReplicaWait replicas, ScheduledExecutorService timer,
            OutageReport outage, QueueActivity activity, Duration maxRetryAfter) {
        this.queue = queue.name();
        this.leases = leases;
        this.batcher = new SettlementBatcher(queue, BATCH, activity, replicas, this::unreplicated);
        this.timer = timer;
        this.outage = outage;
        this.activity = activity;
        this.maxRetryAfter = maxRetryAfter;
    }

    public void ack(Lease lease) {
        leases.settling(lease);
        settle(lease, "ack", () -> batcher.ack(lease), refusal -> failDelivery(lease, refusal, null), 0);
    }

    /**
     * Acks the lease and enqueues what its exchange sent, in one call: either both land, or neither does. For a
     * request ({@code requester} not null), the reply goes to the requester in that call too.
     */
    public void handOff(Lease lease, List<HandOff> handOffs, ReplyTo requester, Reply reply) {
        leases.settling(lease);
        settle(lease, "ack", () -> batcher.handOff(lease, handOffs, requester, reply),
                refusal -> failDelivery(lease, refusal, requester), 0);
    }

    /** An ack that Redis refused for good: the delivery fails with the refusal, retried or dead-lettered by a nack. */
    private void failDelivery(Lease lease, Throwable refusal, ReplyTo requester) {
        LOG.warn("Redis refused the ack of message '{}' of queue '{}' in a way no retry cures; the delivery fails "
                 + "instead: {}", OneLine.of(lease.messageId()), queue, OneLine.of(refusal.getMessage()));
        nack(lease, refusal.getClass().getName() + ": " + refusal.getMessage(), requester);
    }

    /**
     * Settles the delivery as failed. A request ({@code requester} not null) that this dead-letters gets an error
     * reply, once Redis has dead-lettered it.
     */
    public void nack(Lease lease, String reason, ReplyTo requester) {
        leases.settling(lease);
        Failure failure = new Failure(lease, reason);
        settle(lease, "nack", () -> batcher.nack(failure).thenCompose(settled ->
                settled == Settled.DEAD_LETTERED && requester != null ? replyFailed(lease, requester, reason, settled)
                        : CompletableFuture.completedFuture(settled)), null, 0);
    }

    /**
     * Sends a dead-lettered request's error reply. A failure is logged, not retried: the nack landed, and a retry
     * of it would be refused; the requester times out instead.
     */
    private CompletableFuture<Settled> replyFailed(Lease lease, ReplyTo requester, String reason, Settled settled) {
        String error = "Request '" + lease.messageId() + "' was dead-lettered by the consumer of queue '" + queue
                       + "': " + reason;
        return batcher.reply(requester, Reply.failed(requester.correlationId(), error)).handle((done, failed) -> {
            if (failed != null) {
                LOG.warn("The error reply to request '{}' of queue '{}' did not reach Redis; its requester times out: "
                         + "{}", OneLine.of(lease.messageId()), queue, OneLine.of(failed.getMessage()));
            }
            return settled;
        });
    }

    /** Gives the delivery back, due again after {@code delay}, at most maxRetryAfter: no failure, no retry used. */
    public void retryAfter(Lease lease, Duration delay) {
        leases.settling(lease);
        Failure failure = Failure.retryAfter(lease, delay.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : delay);
        settle(lease, "nack", () -> batcher.nack(failure), null, 0);
    }

    /**
     * Sends the settlement call; retries it with backoff while the lease is held when it does not land. A refusal no
     * retry cures goes to {@code refused}, with the lease still held; without one (a nack), the settlement ends and
     * the message is delivered again when its lease expires.
     */
    private void settle(Lease lease, String operation, Supplier<CompletableFuture<Settled>> call,
            Consumer<Throwable> refused, int failedAttempts) {
        call.get().whenComplete((result, error) -> {
            if (error == null) {
                if (failedAttempts > 0) {
                    recovered();
                }
                outage.succeeded("settle");
                settled(lease, operation, result, failedAttempts);
            } else if (QueueException.isRefusedForGood(error)) {
                // Redis answered: no outage, whether or not earlier attempts met one
                if (failedAttempts > 0) {
                    recovered();
                }
                outage.succeeded("settle");
                Throwable refusal = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                if (refused != null) {
                    refused.accept(refusal);
                } else {
                    leases.drop(lease);
                    LOG.warn("Redis refused the {} of message '{}' of queue '{}' in a way no retry cures; the message "
                             + "is delivered again when its lease expires: {}", operation,
                            OneLine.of(lease.messageId()), queue, OneLine.of(refusal.getMessage()));
                }
            } else if (stopped) {
                giveUp(lease, failedAttempts > 0, "Gave up settling message '{}' of queue '{}': the consumer stopped; "
                                                  + "it is delivered again when its lease expires");
            } else {
                if (failedAttempts == 0) {
                    failed();
                }
                outage.failed("settle", error);
                retry(lease, operation, call, refused, failedAttempts + 1);
            }
        });
    }

    private void retry(Lease lease, String operation, Supplier<CompletableFuture<Settled>> call,
            Consumer<Throwable> refused, int failedAttempts) {
        if (!leases.holds(lease)) {
            giveUp(lease, true, "Could not settle message '{}' of queue '{}' before its lease ended; unless an "
                                + "attempt whose answer was lost carried it out, the message is delivered again");
            return;
        }
        try {
            timer.schedule(() -> settle(lease, operation, call, refused, failedAttempts),
                    CallBackoff.after(failedAttempts).toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            giveUp(lease, true, "Gave up settling message '{}' of queue '{}': the consumer stopped; it is delivered "
                                + "again when its lease expires");
        }
    }

    /** Ends a settlement that will not land; the settle activity no longer fails once none is left failing. */
    private void giveUp(Lease lease, boolean wasFailing, String warning) {
        leases.drop(lease);
        if (wasFailing && recovered() == 0) {
            outage.idle("settle");
        }
        LOG.warn(warning, OneLine.of(lease.messageId()), queue);
    }

    private synchronized void failed() {
        failing++;
    }

    /** One failing settlement landed or ended; returns how many still fail. */
    private synchronized int recovered() {
        return --failing;
    }

    private void settled(Lease lease, String operation, Settled result, int failedAttempts) {
        leases.drop(lease);
        activity.settled(result);
        if (result == Settled.REFUSED) {
            if (failedAttempts == 0) {
                LOG.warn("The {} of message '{}' of queue '{}' was refused: its lease had expired and the message was "
                         + "returned or claimed again", operation, OneLine.of(lease.messageId()), queue);
            } else {
                LOG.warn("The retried {} of message '{}' of queue '{}' was refused: an earlier attempt whose answer "
                         + "was lost carried it out, or its lease had expired", operation,
                        OneLine.of(lease.messageId()), queue);
            }
        } else if (result == Settled.DEAD_LETTERED) {
            LOG.debug("Message '{}' of queue '{}' moved to the dead letters", OneLine.of(lease.messageId()), queue);
        }
    }

    /**
     * Acks that are done on the master, but that too few replicas confirmed. They stay done: retrying one would be
     * refused, since its lease token is spent. A replica promoted without them delivers their messages again, a
     * duplicate that at-least-once delivery allows; so they are logged and counted, and the exchanges go on.
     */
    private void unreplicated(List<Settled> results, String why) {
        long acked = results.stream().filter(result -> result == Settled.ACKED).count();
        if (acked > 0) {
            LOG.warn("{} acks of queue '{}' are done on the master but not known to be replicated or on disk: {}; if "
                     + "the master fails before they are, their messages are delivered again", acked, queue,
                    OneLine.of(why));
            activity.add(Count.UNREPLICATED_ACKS, acked);
        }
    }

    /** Extends every held lease; logs the leases of running exchanges that were lost. */
    public void extendLeases() {
        try {
            LeaseKeeper.Extension extension = leases.extendAll();
            if (extension.failure() != null) {
                if (!stopped) {
                    outage.failed("extend", extension.failure());
                }
            } else if (extension.called()) {
                outage.succeeded("extend");
            } else {
                outage.idle("extend");
            }
            activity.add(Count.LEASE_EXTENSIONS, extension.extended());
            activity.add(Count.LEASES_LOST, extension.lost().size());
            for (Lease lease : extension.lost()) {
                LOG.warn("The lease of message '{}' of queue '{}' was lost before its exchange finished; the message "
                         + "may be processed twice (or, if it was waiting behind its batch, it is skipped)",
                        OneLine.of(lease.messageId()), queue);
            }
        } catch (RuntimeException e) {
            if (!stopped) {
                outage.failed("extend", e);
            }
        }
    }

    /**
     * Waits until no lease is held any more: every delivery's exchange is done and its settlement landed (or
     * ended), also for exchanges that Camel handed over to another thread. At most until the deadline
     * (System.nanoTime); an interrupt ends the wait too. Returns whether nothing is held.
     */
    public boolean awaitSettled(long deadlineNanos) {
        long left;
        while (leases.size() > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
            try {
                // leases end on several threads, or are refused by an extension: a short sleep sees each of them
                TimeUnit.NANOSECONDS.sleep(Math.min(left, AWAIT_STEP_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return leases.size() == 0;
    }

    /** The consumer stopped: a failure from now on ends its settlement instead of reporting an outage. */
    public void stop() {
        stopped = true;
    }

    /** Deliveries whose lease is held: being processed, or settling. */
    public int heldCount() {
        return leases.size();
    }
}
