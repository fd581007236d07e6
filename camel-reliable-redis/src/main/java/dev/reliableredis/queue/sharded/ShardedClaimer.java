package dev.reliableredis.queue.sharded;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;

/**
 * Claims from a sharded queue for one consumer: first from every shard, from the queue's rotating start; when none
 * has anything, through its home shard's own claimer, which waits for arrivals on that shard as an unsharded
 * consumer waits (a wake-up token, a blocking stream read, or a pause) and claims there. While messages keep coming,
 * no claim waits; an idle consumer notices an arrival on another shard when its wait ends, at most {@code maxWait}
 * later.
 */
final class ShardedClaimer implements Claimer {

    private final ShardedQueue queue;
    private final int home;
    private final Claimer homeClaimer;

    ShardedClaimer(ShardedQueue queue, int home, Claimer homeClaimer) {
        this.queue = queue;
        this.home = home;
        this.homeClaimer = homeClaimer;
    }

    @Override
    public List<Delivery> claim(int max, Duration maxWait, UnaryOperator<List<Delivery>> start) {
        List<Delivery> claimed = queue.claim(max);
        if (!claimed.isEmpty()) {
            return start.apply(claimed);
        }
        // the home claimer returns what start returned, which is already tagged with the home shard
        return homeClaimer.claim(max, maxWait, deliveries -> start.apply(ShardLeases.tag(home, deliveries)));
    }

    @Override
    public void wakeUp() {
        homeClaimer.wakeUp();
    }

    @Override
    public void close() {
        homeClaimer.close();
    }
}
