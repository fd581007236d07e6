package dev.reliableredis.queue.sharded;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.calls.ThreadClaimer;

/**
 * Claims from a sharded queue for one consumer thread: first from the shards, from the queue's rotating start; when none
 * has anything, through its home shard's own claimer, which waits for arrivals on that shard as an unsharded
 * consumer waits (a wake-up token, a blocking stream read, or a pause) and claims there. While messages keep coming,
 * no claim waits; an idle consumer notices an arrival on another shard when its wait ends, at most {@code maxWait}
 * later. While its home shard fails, it waits {@code maxWait} without Redis instead, and claims from the others.
 */
final class ShardedClaimer extends ThreadClaimer {

    private final ShardedQueue queue;
    private final int home;
    private final Claimer homeClaimer;
    /** Ends a wait in place of the home shard's, which the stop's {@link #wakeUp} does once and for all. */
    private final CountDownLatch woken = new CountDownLatch(1);

    ShardedClaimer(ShardedQueue queue, Claimant claimant, ClaimId claimId, int home, Claimer homeClaimer) {
        super(claimant, claimId);
        this.queue = queue;
        this.home = home;
        this.homeClaimer = homeClaimer;
    }

    @Override
    public List<List<Delivery>> claim(List<Claimant> claimants, int maxEach, Duration maxWait) {
        Claimed claimed = queue.claim(claimant, claimants, maxEach, claimId);
        if (!claimed.isEmpty()) {
            return claimed.parts(claimants.size());
        }
        if (queue.isFailing(home)) {
            // waiting through the failing home shard would fail, or hold this thread for the command timeout
            try {
                woken.await(maxWait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Claimed.none(claimants.size());
        }
        return ShardLeases.tagParts(home, homeClaimer.claim(claimants, maxEach, maxWait));
    }

    @Override
    public void wakeUp() {
        woken.countDown();
        homeClaimer.wakeUp();
    }

    @Override
    public void close() {
        homeClaimer.close();
    }
}
