package dev.reliableredis.queue.list;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.QueueCalls;
import dev.reliableredis.queue.RedisGateway;
import io.lettuce.core.api.StatefulConnection;

/**
 * Claims the ready messages of a list-mode queue for one consumer. Before each claim it waits for a wake-up token
 * with BLPOP on the queue's wake list, on a connection of its own. The scripts that make messages ready leave a
 * token when there is none, and a claim that leaves messages behind leaves one for the next consumer; Redis hands
 * each token to one waiting consumer. So an arrival wakes one idle consumer, not every idle one in every JVM, and
 * a consumer with work left finds its token at once. A claim that left ready messages behind is followed by the next
 * claim without a wait. A wait that ends without a token claims all the same, so a lost token costs at most
 * {@code maxWait}.
 */
final class ListClaimer implements Claimer {

    private final ListQueue queue;
    private final QueueCalls calls;
    private final RedisGateway gateway;
    private final byte[] wakeKey;
    private StatefulConnection<byte[], byte[]> connection;
    private volatile boolean woken;
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
        if (!more) {
            calls.run("claim", () -> {
                StatefulConnection<byte[], byte[]> waiting = connection(maxWait);
                return waiting == null ? null
                        : RedisGateway.sync(waiting).blpop(Math.max(maxWait.toMillis(), 1) / 1000.0, wakeKey);
            });
        }
        if (woken) {
            return List.of();
        }
        ListQueue.Claimed claimed = queue.claimBatch(max);
        more = claimed.more();
        return claimed.deliveries();
    }

    /** The waiting connection, opened on first use outside the lock (wakeUp must not wait for it); null once woken. */
    private StatefulConnection<byte[], byte[]> connection(Duration maxWait) {
        synchronized (this) {
            if (connection != null || woken) {
                return connection;
            }
        }
        // the client must not give up on a wait that Redis still serves
        StatefulConnection<byte[], byte[]> opened = gateway.connectDedicated(maxWait.plus(gateway.commandTimeout()));
        synchronized (this) {
            if (!woken) {
                connection = opened;
                return opened;
            }
        }
        opened.closeAsync();
        return null;
    }

    /** Closing the connection ends a BLPOP under way at once; the claim it was for then fails. */
    @Override
    public synchronized void wakeUp() {
        woken = true;
        if (connection != null) {
            connection.closeAsync();
            connection = null;
        }
    }

    @Override
    public void close() {
        wakeUp();
    }
}
