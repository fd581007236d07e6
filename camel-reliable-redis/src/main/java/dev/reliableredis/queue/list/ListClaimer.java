package dev.reliableredis.queue.list;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.QueueCalls;
import dev.reliableredis.queue.RedisGateway;
import io.lettuce.core.RedisCommandExecutionException;
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
 * a consumer with work left finds its token at once. The claim is written right behind the BLPOP on the same
 * connection: Redis runs it the moment the BLPOP returns, with no round trip in between. A wait that ends without a
 * token claims all the same, so a lost token costs at most {@code maxWait}. A claim that left ready messages behind
 * is followed by the next claim without a wait.
 */
final class ListClaimer implements Claimer {

    /** How often a stopping consumer asks Redis again to end its wait, in case the first request overtook it. */
    private static final long UNBLOCK_EVERY_MILLIS = 100;
    /** Requests after which a stopping consumer cuts its connection instead: Redis does not answer. */
    private static final int UNBLOCK_ATTEMPTS = 5;

    private final ListQueue queue;
    private final QueueCalls calls;
    private final RedisGateway gateway;
    private final byte[] wakeKey;
    private StatefulConnection<byte[], byte[]> connection;
    /** The waiting connection's CLIENT ID; null where it cannot be addressed. */
    private Long clientId;
    private volatile boolean woken;
    private boolean closed;
    /** The last claim left ready messages behind: claim again at once. */
    private boolean more;

    ListClaimer(ListQueue queue, QueueCalls calls, RedisGateway gateway, byte[] wakeKey) {
        this.queue = queue;
        this.calls = calls;
        this.gateway = gateway;
        this.wakeKey = wakeKey;
    }

    @Override
    public List<Delivery> claim(int max, Duration maxWait) {
        if (woken) {
            return List.of();
        }
        ListQueue.Claimed claimed = more ? queue.claimBatch(max) : calls.run("claim", () -> waitAndClaim(max, maxWait));
        more = claimed.more();
        return claimed.deliveries();
    }

    private ListQueue.Claimed waitAndClaim(int max, Duration maxWait) {
        RedisClusterAsyncCommands<byte[], byte[]> waiting = RedisGateway.async(connection(maxWait));
        waiting.blpop(Math.max(maxWait.toMillis(), 1) / 1000.0, wakeKey);
        CompletableFuture<ListQueue.Claimed> claim = queue.claimBatch(waiting, max);
        try {
            int unblocked = 0;
            while (true) {
                try {
                    return claim.get(UNBLOCK_EVERY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillWaiting) {
                    if (woken && ++unblocked > UNBLOCK_ATTEMPTS) {
                        discardConnection();
                    } else if (woken) {
                        unblock();
                    }
                }
            }
        } catch (ExecutionException e) {
            // a reconnected connection has another CLIENT ID, and a reply that came too late would be out of step
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
        }
    }

    /** The waiting connection, opened on first use (outside the lock: wakeUp must not wait for it). */
    private StatefulConnection<byte[], byte[]> connection(Duration maxWait) {
        synchronized (this) {
            if (closed) {
                throw new RedisException("The claimer of queue '" + queue.name() + "' is closed");
            }
            if (connection != null) {
                return connection;
            }
        }
        // the client must not give up on a wait that Redis still serves
        StatefulConnection<byte[], byte[]> opened = gateway.connectDedicated(maxWait.plus(gateway.commandTimeout()));
        Long id;
        try {
            id = clientId(opened);
        } catch (RuntimeException e) {
            opened.closeAsync();
            throw e;
        }
        synchronized (this) {
            if (closed) {
                opened.closeAsync();
                throw new RedisException("The claimer of queue '" + queue.name() + "' is closed");
            }
            connection = opened;
            clientId = id;
            return opened;
        }
    }

    /** The connection's CLIENT ID, or null where it cannot be addressed: a cluster connection, or an ACL without it. */
    private static Long clientId(StatefulConnection<byte[], byte[]> connection) {
        if (!(connection instanceof StatefulRedisConnection<byte[], byte[]> standalone)) {
            return null;
        }
        try {
            return standalone.sync().clientId();
        } catch (RedisCommandExecutionException refused) {
            return null;
        }
    }

    /**
     * Ends the wait under way, if any, without waiting for Redis: BLPOP returns as if it had timed out, and the claim
     * behind it runs and returns what it claimed, which the stopping consumer gives back. Cutting the connection
     * instead could lose the reply of a claim Redis has run, leaving its messages leased until the lease expires; it is
     * the way only where the connection cannot be addressed, or Redis does not answer.
     */
    @Override
    public void wakeUp() {
        woken = true;
        unblock();
    }

    private synchronized void unblock() {
        if (connection == null) {
            return;
        }
        RedisClusterAsyncCommands<byte[], byte[]> redis = gateway.asyncCommandsIfOpen();
        if (clientId == null || redis == null) {
            discardConnection();
        } else {
            redis.clientUnblock(clientId, UnblockType.TIMEOUT);
        }
    }

    @Override
    public synchronized void close() {
        woken = true;
        closed = true;
        discardConnection();
    }
}
