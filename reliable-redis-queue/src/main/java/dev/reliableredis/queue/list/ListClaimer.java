package dev.reliableredis.queue.list;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Hold;
import dev.reliableredis.queue.WakeableSleep;
import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.calls.ThreadClaimer;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * Claims the ready messages of a list-mode queue for one consumer. Before each claim it waits for a wake-up token
 * with BLPOP on the queue's wake list, on a connection of its own. The scripts that make messages ready leave a
 * token when there is none, and a claim that leaves messages behind leaves one for the next consumer; Redis hands
 * each token to one waiting consumer. So an arrival wakes one idle consumer, not every idle one in every JVM, and
 * a consumer thread back from its batch finds a token at once while work is left. The claim is written right behind
 * the BLPOP on the same connection: Redis runs it the moment the BLPOP returns, with no round trip in between. A
 * wait that ends without a token claims all the same, so a lost token costs at most {@code maxWait}. Only the first
 * claim goes without a wait, so that a new claimer counts as live for the fair share at once. (A claimer that also
 * claimed again at once after leaving messages behind would race the consumer its token woke, and one of them would
 * claim nothing: measured, more claims than messages.)
 *
 * <p>While the queue is paused, the claim tells so ({@link Hold}), and the next wait is for a resume instead, with
 * XREAD on the queue's resumed stream, no longer than the pause has left: an arrival does not wake a paused
 * consumer, a resume wakes every one at once, and a timed pause ends on time. At the rate limit the claim tells how
 * long until the limit allows a message, and the claimer sleeps that long, then claims without a wait for a token:
 * the claim at the limit took the token and left none, so the other consumers go on waiting for one, which the next
 * claim leaves when it leaves messages behind.
 */
final class ListClaimer extends ThreadClaimer {

    /** How often a stopping consumer asks Redis again to end its wait, in case the first request overtook it. */
    private static final long UNBLOCK_EVERY_MILLIS = 100;
    /**
     * Requests Redis has not answered after which a stopping consumer cuts its connection instead: Redis does not
     * answer. A request answered 0 (not waiting: the wait is over and the claim behind it under way, or not begun)
     * does not count, so a slow claim's reply is never cut off.
     */
    private static final int UNBLOCK_ATTEMPTS = 5;

    private final ListQueue queue;
    private final QueueCalls calls;
    private final RedisGateway gateway;
    private final byte[] wakeKey;
    private final byte[] resumedKey;
    /** What held the last claim back (a pause, the rate limit); null when nothing did. */
    private Hold hold;
    private StatefulConnection<byte[], byte[]> connection;
    /**
     * The waiting connection's CLIENT ID, asked for in front of its first wait, not of each (a command per claim).
     * A connection Lettuce reconnected has another id: a stop then finds the old one not waiting, and after its
     * unblock attempts cuts the connection instead, half a second later.
     */
    private volatile Long clientId;
    /** False where the connection cannot be addressed: a cluster connection, or a user without CLIENT. */
    private volatile boolean addressable = true;
    /** Redis confirmed that it ended the wait: only the claim's reply is awaited now. */
    private volatile boolean unblocked;
    /** Requests to end the wait that Redis has not answered yet. */
    private final AtomicInteger unansweredUnblocks = new AtomicInteger();
    private volatile boolean woken;
    private final WakeableSleep sleep = new WakeableSleep();
    private boolean closed;
    /** No claim was made yet: the first claims at once. */
    private boolean first = true;

    ListClaimer(ListQueue queue, Claimant claimant, ClaimId claimId, QueueCalls calls, RedisGateway gateway,
            byte[] wakeKey, byte[] resumedKey) {
        super(claimant, claimId);
        this.queue = queue;
        this.calls = calls;
        this.gateway = gateway;
        this.wakeKey = wakeKey;
        this.resumedKey = resumedKey;
    }

    @Override
    public List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait) {
        if (woken) {
            return Claimed.none(claimants.size());
        }
        boolean limited = hold != null && hold.reason() == Hold.Reason.LIMITED;
        if (limited && !sleep.sleep(hold.waitAtMost(maxWait))) {
            return Claimed.none(claimants.size());
        }
        // after the wait the limit asked for, the claim goes at once: a token may not come
        boolean atOnce = first || limited;
        Claimed result = calls.run("claim", () -> {
            RedisClusterAsyncCommands<byte[], byte[]> waiting = null;
            CompletableFuture<?> wait = null;
            if (!atOnce) {
                StatefulConnection<byte[], byte[]> opened = connection(maxWait);
                waiting = RedisGateway.async(opened);
                if (!(opened instanceof StatefulRedisConnection<byte[], byte[]>)) {
                    addressable = false;
                } else if (clientId == null) {
                    waiting.clientId().whenComplete((id, refused) -> {
                        clientId = id;
                        addressable = refused == null;
                    });
                }
                wait = hold != null ? hold.await(waiting, resumedKey, waitLimit(hold.waitAtMost(maxWait)))
                        : waiting.blpop(Math.max(waitLimit(maxWait).toMillis(), 1) / 1000.0, wakeKey)
                                .toCompletableFuture();
            }
            CompletableFuture<?> waited = wait;
            first = false;
            long deadline = System.nanoTime() + maxWait.plus(gateway.commandTimeout()).toNanos();
            Claimed claimed = queue.toClaimed(
                    await(deadline, queue.claimRows(waiting, claimant, claimants, maxEach, claimId.value())),
                    claimants.size());
            // Redis answered the wait before the claim behind it. A refused wait (BLPOP not allowed to the user) ends
            // at once, and an idle consumer would claim again and again without pause: an empty claim fails with the
            // wait's error instead (join throws it)
            if (claimed.isEmpty() && waited != null && waited.isCompletedExceptionally()) {
                waited.join();
            }
            return claimed;
        });
        claimId.renew();
        hold = result.hold();
        return result.parts(claimants.size());
    }

    /**
     * On a cluster connection the wait runs on a node connection, whose timeout is the command timeout, not the
     * longer one of this connection: it must end well before that.
     */
    private Duration waitLimit(Duration maxWait) {
        Duration nodeLimit = gateway.commandTimeout().dividedBy(2);
        return gateway.isCluster() && maxWait.compareTo(nodeLimit) > 0 ? nodeLimit : maxWait;
    }

    /**
     * Waits for the claim, at most until the deadline (System.nanoTime: the wait and the command timeout, also where
     * an application's client has a longer timeout of its own); once the consumer stops, ends the wait it may be
     * behind.
     */
    private List<Object> await(long deadline, CompletableFuture<List<Object>> claim) {
        try {
            while (true) {
                try {
                    return claim.get(UNBLOCK_EVERY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillWaiting) {
                    if (System.nanoTime() - deadline > 0) {
                        discardConnection();
                        throw new RedisCommandTimeoutException("The claim of queue '" + queue.name()
                                + "' had no answer within its wait and the command timeout");
                    }
                    if (woken && !unblocked && unansweredUnblocks.get() >= UNBLOCK_ATTEMPTS) {
                        discardConnection();
                    } else if (woken && !unblocked) {
                        unblock();
                    }
                }
            }
        } catch (ExecutionException e) {
            // a reply that came too late would be out of step with the next command
            discardConnection();
            throw e.getCause() instanceof RuntimeException cause ? cause : new RedisException(e.getCause());
        } catch (InterruptedException e) {
            discardConnection();
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while claiming", e);
        }
    }

    private synchronized void discardConnection() {
        if (connection != null) {
            connection.closeAsync();
            connection = null;
            clientId = null;
        }
    }

    /** The waiting connection, opened on first use (outside the lock: wakeUp must not wait for it). */
    private StatefulConnection<byte[], byte[]> connection(Duration maxWait) {
        synchronized (this) {
            if (closed || woken) {
                throw new RedisException("The claimer of queue '" + queue.name() + "' is stopping");
            }
            if (connection != null) {
                return connection;
            }
        }
        // the client must not give up on a wait that Redis still serves
        StatefulConnection<byte[], byte[]> opened = gateway.connectDedicated(maxWait.plus(gateway.commandTimeout()));
        synchronized (this) {
            if (closed || woken) {
                opened.closeAsync();
                throw new RedisException("The claimer of queue '" + queue.name() + "' is stopping");
            }
            connection = opened;
            return opened;
        }
    }

    /**
     * Ends the wait under way, if any, without waiting for Redis: BLPOP returns as if it had timed out, and the claim
     * behind it runs and returns what it claimed, which the stopping consumer gives back. Cutting the connection
     * instead could lose the reply of a claim Redis has run, leaving its messages leased until the lease expires,
     * their delivery counted: it is the way only when Redis does not answer. A connection that cannot be addressed
     * (a cluster connection, a user without CLIENT) is left to end its wait, which is bounded (on a cluster, by half
     * the command timeout).
     */
    @Override
    public void wakeUp() {
        woken = true;
        sleep.end();
        unblock();
    }

    private synchronized void unblock() {
        if (connection == null) {
            return;
        }
        Long id = clientId;
        RedisClusterAsyncCommands<byte[], byte[]> redis = gateway.asyncCommandsIfOpen();
        if (!addressable || redis == null || id == null) {
            // the wait ends by itself; with its CLIENT ID on its way, the claim's wait asks again
            return;
        }
        // 1: the wait ended; 0: not waiting (yet, or any more): asked again while the claim is awaited
        unansweredUnblocks.incrementAndGet();
        redis.clientUnblock(id, UnblockType.TIMEOUT).whenComplete((ended, error) -> {
            if (error != null) {
                discardConnection();
                return;
            }
            unansweredUnblocks.decrementAndGet();
            if (ended == 1) {
                unblocked = true;
            }
        });
    }

    @Override
    public synchronized void close() {
        woken = true;
        sleep.end();
        closed = true;
        discardConnection();
    }
}
