package dev.reliableredis.queue.sharded;

import dev.reliableredis.queue.LuaScript;
import dev.reliableredis.queue.QueueCalls;
import dev.reliableredis.queue.QueueNames;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.RedisGateway;
import dev.reliableredis.queue.ReliableQueue;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.RedisBytes.bytes;

/**
 * A queue's shard count as Redis records it ({@code <prefix>:{<queue>}:meta}, field {@code shards}): the count it
 * was first used with, so that an endpoint with another one is refused rather than leaving the messages of the
 * shards it does not know stranded (never counted, consumed or reaped). Checked once per endpoint, before its
 * first send or claim; a queue used unsharded has no record, and counts as 1.
 */
public final class ShardCount {

    private static final LuaScript SHARD_COUNT = LuaScript.load("shard-count");

    private final String queue;
    private final int count;
    private final QueueCalls calls;
    private final byte[] meta;
    private volatile boolean checked;

    public ShardCount(RedisGateway redis, String prefix, String queue, int count) {
        this.queue = queue;
        this.count = count;
        this.calls = new QueueCalls(redis, queue);
        this.meta = bytes(QueueNames.keyBase(prefix, queue) + "meta");
    }

    /**
     * Records this count where none is, and throws an IllegalStateException naming both counts when Redis has
     * another one; after one check that passed, does nothing. A Redis failure is thrown as a QueueException.
     */
    public void check() {
        if (checked) {
            return;
        }
        long recorded = calls.run("check the shard count", SHARD_COUNT, ScriptOutputType.INTEGER,
                QueueCalls.keys(meta), bytes(count), bytes("check"));
        if (recorded != count) {
            throw new IllegalStateException("Queue '" + queue + "' has " + recorded + " shard(s), as Redis records "
                    + "it, and this endpoint has shards=" + count + ": with another count, messages would go where no "
                    + "consumer looks. Use shards=" + recorded + "; to change the count, drain the queue with shards="
                    + recorded + " and run the reshard operation there (see the user guide, Sharded queues)");
        }
        checked = true;
    }

    /**
     * Records another count for the queue, whose endpoint has this one ({@code queue} is it): only when it holds no
     * message at all, ready, in flight, delayed or dead, since each message is in the shard the old count picked.
     * Stop the queue's producers first: a message sent meanwhile with the old count can land in a shard the new
     * count does not have.
     */
    public void reshard(ReliableQueue queue, int newCount) {
        if (newCount < 1 || newCount > ShardedQueue.MAX_SHARDS) {
            throw new IllegalArgumentException("A reshard of queue '" + this.queue + "' needs a count between 1 and "
                    + ShardedQueue.MAX_SHARDS + ", not " + newCount);
        }
        check();
        QueueStats stats = queue.stats();
        long held = stats.ready() + stats.inflight() + stats.delayed() + stats.dead();
        if (held > 0) {
            throw new IllegalStateException("Queue '" + this.queue + "' cannot go from " + count + " to " + newCount
                    + " shards while it holds messages (" + stats.ready() + " ready, " + stats.inflight()
                    + " in flight, " + stats.delayed() + " delayed, " + stats.dead() + " dead): drain it with shards="
                    + count + " first");
        }
        calls.run("reshard", SHARD_COUNT, ScriptOutputType.INTEGER, QueueCalls.keys(meta), bytes(newCount),
                bytes("set"));
        // this endpoint's count is the old one now: its next send or claim is refused
        checked = false;
    }
}
