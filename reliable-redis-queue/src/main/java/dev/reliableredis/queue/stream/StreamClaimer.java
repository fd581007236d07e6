package dev.reliableredis.queue.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Hold;
import dev.reliableredis.queue.WakeableSleep;
import dev.reliableredis.queue.calls.ThreadClaimer;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulConnection;

/**
 * Claims from a stream-mode queue for one consumer thread: the claim script (due retries, then new entries, no
 * more than the claimant's share), and when it finds nothing, blocking reads of one new entry on a connection of
 * its own until {@code maxWait} has passed. Any program's XADD ends the wait, and Redis serves each new entry to
 * one of the group's waiting consumers; the claim after it takes the rest of a burst as a batch. A blocking
 * read lasts at most one second, which bounds how long a stopping consumer waits for it: it is not cut short,
 * because a read Redis serves while the client gives up would leave its entries pending with no one to process
 * them until their lease expires; for the same reason it lasts at most half the command timeout. Only when Redis
 * has not answered half a second after that (it is paused or unreachable) does a stopping consumer cut its
 * connection, so that its stop does not wait for the command timeout. Due retries are found by the claim script
 * at the latest after {@code maxWait}.
 *
 * <p>While the queue is paused, the claim script tells so ({@link Hold}), and the consumer waits for a resume
 * instead of reading, with XREAD on the queue's resumed stream, no longer than the pause has left, then claims
 * again: a resume wakes every paused consumer at once, and a timed pause ends on time. An entry that a read waiting
 * when the pause landed still took is given back unrun ({@link StreamQueue#readNew}). Under a rate limit or a
 * maxInflight cap the consumer never reads by itself: at the limit it sleeps as long as the claim script says, at
 * the cap it waits for the settlement that frees room (XREAD of the group's freed stream), and when it found nothing
 * to take it waits for an arrival with XREAD (which takes nothing); then it claims again. So every entry is taken by
 * the script, under the limit and the cap, and an arrival wakes every waiting consumer of the group. An entry with a
 * time to live that a read took goes back unrun too, so that the claim script judges its expiry on the Redis clock.
 */
final class StreamClaimer extends ThreadClaimer {

    private static final Duration MAX_BLOCK = Duration.ofSeconds(1);
    /** How long a stopping consumer waits for the read under way before it cuts the connection. */
    private static final long STOP_GRACE_NANOS = MAX_BLOCK.plusMillis(500).toNanos();
    private static final long CHECK_EVERY_MILLIS = 100;

    private final StreamQueue queue;
    private final RedisGateway gateway;
    private StatefulConnection<byte[], byte[]> connection;
    private volatile boolean woken;
    private final WakeableSleep sleep = new WakeableSleep();
    private boolean closed;

    StreamClaimer(StreamQueue queue, Claimant claimant, ClaimId claimId, RedisGateway gateway) {
        super(claimant, claimId);
        this.queue = queue;
        this.gateway = gateway;
    }

    @Override
    public List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait) {
        int parts = claimants.size();
        if (woken) {
            return Claimed.none(parts);
        }
        Claimed claimed = queue.claim(claimant, claimants, maxEach, claimId);
        if (!claimed.isEmpty()) {
            return claimed.parts(parts);
        }
        Hold hold = claimed.hold();
        long deadline = System.nanoTime() + maxWait.toNanos();
        long left;
        while (!woken && (left = deadline - System.nanoTime()) > 0) {
            Duration block = shortest(Duration.ofNanos(left), MAX_BLOCK, gateway.commandTimeout().dividedBy(2));
            if (hold != null && hold.reason() == Hold.Reason.LIMITED) {
                if (!sleep.sleep(hold.waitAtMost(Duration.ofNanos(left)))) {
                    return Claimed.none(parts);
                }
            } else if (hold != null) {
                if (!ends(queue.await(connection(), hold, hold.waitAtMost(block)))) {
                    return Claimed.none(parts);
                }
            } else {
                CompletableFuture<StreamQueue.NewEntry> read = queue.readNew(connection(), block);
                if (!ends(read)) {
                    return Claimed.none(parts);
                }
                StreamQueue.NewEntry arrived = RedisGateway.await(read);
                if (!arrived.giveBack()) {
                    if (!arrived.deliveries().isEmpty()) {
                        // the waiter's part: it runs at once, and the next waiter's claim takes the rest of a burst
                        List<List<Delivery>> taken = new ArrayList<>(Claimed.none(parts));
                        taken.set(0, arrived.deliveries());
                        return taken;
                    }
                    continue;
                }
                // what a read under way when a pause landed took, or an entry with a time to live, goes back unrun
                queue.release(arrived.deliveries().stream().map(Delivery::lease).toList());
            }
            claimed = queue.claim(claimant, claimants, maxEach, claimId);
            if (!claimed.isEmpty()) {
                return claimed.parts(parts);
            }
            hold = claimed.hold();
        }
        return Claimed.none(parts);
    }

    /**
     * Waits for the read; false when the consumer stops and Redis does not end the read within the grace period,
     * or the waiting thread is interrupted: then the connection is cut.
     */
    private boolean ends(CompletableFuture<?> read) {
        boolean stopping = false;
        long cutAt = 0;
        while (true) {
            try {
                read.get(CHECK_EVERY_MILLIS, TimeUnit.MILLISECONDS);
                return true;
            } catch (ExecutionException failed) {
                return true;
            } catch (TimeoutException stillReading) {
                if (woken && !stopping) {
                    stopping = true;
                    cutAt = System.nanoTime() + STOP_GRACE_NANOS;
                } else if (stopping && System.nanoTime() - cutAt > 0) {
                    discardConnection();
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                discardConnection();
                return false;
            }
        }
    }

    private synchronized void discardConnection() {
        if (connection != null) {
            connection.closeAsync();
            connection = null;
        }
    }

    private synchronized StatefulConnection<byte[], byte[]> connection() {
        if (closed) {
            throw new RedisException("The claimer of queue '" + queue.name() + "' is closed");
        }
        if (connection == null) {
            connection = gateway.connectDedicated(MAX_BLOCK.plus(gateway.commandTimeout()));
        }
        return connection;
    }

    private static Duration shortest(Duration... durations) {
        Duration shortest = durations[0];
        for (Duration d : durations) {
            shortest = d.compareTo(shortest) < 0 ? d : shortest;
        }
        return shortest.toMillis() < 1 ? Duration.ofMillis(1) : shortest;
    }

    /** Ends the waiting after the blocking read under way, within a second. */
    @Override
    public void wakeUp() {
        woken = true;
        sleep.end();
    }

    @Override
    public synchronized void close() {
        woken = true;
        sleep.end();
        closed = true;
        discardConnection();
    }
}
