package dev.reliableredis.queue.sharded;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.reliableredis.queue.redis.CallBackoff;
import dev.reliableredis.queue.redis.OneLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards whose last claim failed. Claims pass over such a shard for a while ({@link CallBackoff}, growing with
 * its failures in a row), so that a master that is down or does not answer costs the other shards' messages no
 * wait; when the while is over, one claim tries the shard again while the others go on passing over it.
 */
final class FailingShards {

    private static final Logger LOG = LoggerFactory.getLogger(FailingShards.class);

    private final String queue;
    private final AtomicIntegerArray failures;
    /** When each failing shard is tried again, in {@link System#nanoTime}. */
    private final AtomicLongArray retryAt;

    FailingShards(String queue, int shards) {
        this.queue = queue;
        this.failures = new AtomicIntegerArray(shards);
        this.retryAt = new AtomicLongArray(shards);
    }

    /**
     * Whether a claim passes over the shard now. False for a shard that is not failing, and for the one claim that
     * may try a failing shard again: it moves the next try on by the shard's backoff, so the other claims meanwhile
     * pass over it.
     */
    boolean passOver(int shard) {
        int failed = failures.get(shard);
        if (failed == 0) {
            return false;
        }
        long at = retryAt.get(shard);
        long now = System.nanoTime();
        return now - at < 0 || !retryAt.compareAndSet(shard, at, now + CallBackoff.after(failed).toNanos());
    }

    /** Whether the shard's last claim failed. */
    boolean isFailing(int shard) {
        return failures.get(shard) > 0;
    }

    void failed(int shard, RuntimeException cause) {
        int failed = failures.incrementAndGet(shard);
        retryAt.set(shard, System.nanoTime() + CallBackoff.after(failed).toNanos());
        if (failed == 1) {
            LOG.warn("Shard {} of queue '{}' failed; claims pass over it, trying it again with backoff, while the "
                     + "other shards are consumed: {}", shard, queue, OneLine.of(cause.getMessage()));
        }
    }

    void succeeded(int shard) {
        if (failures.get(shard) > 0 && failures.getAndSet(shard, 0) > 0) {
            LOG.info("Shard {} of queue '{}' is claimed from again", shard, queue);
        }
    }
}
