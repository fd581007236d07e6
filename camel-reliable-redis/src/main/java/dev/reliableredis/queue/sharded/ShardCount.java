package dev.reliableredis.queue.sharded;

import java.util.List;
import java.util.Objects;

import dev.reliableredis.queue.QueueNames;
import dev.reliableredis.queue.RedisGateway;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.internal.QueueCalls;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;

/**
 * A queue's shard count as Redis records it ({@code <prefix>:{<queue>}:meta}, field {@code shards}): the count it
 * was first used with, so that an endpoint with another one is refused rather than leaving the messages of the
 * shards it does not know stranded (never counted, consumed or reaped). Checked once per endpoint, before its
 * first send or claim; a queue used unsharded has no record, and counts as 1. A reshard moves the messages to the
 * layout of a new count ({@link ShardMover}) and records it; while it does, every endpoint is refused.
 */
public final class ShardCount {

    private static final LuaScript SHARD_COUNT = LuaScript.load("shard-count");

    private final String queue;
    private final int count;
    private final ShardMover mover;
    private final QueueCalls calls;
    private final byte[] meta;
    private volatile boolean checked;

    /** @param mover moves the queue's messages for a reshard, in its mode */
    public ShardCount(RedisGateway redis, String prefix, String queue, int count, ShardMover mover) {
        this.queue = queue;
        this.count = count;
        this.mover = Objects.requireNonNull(mover, "mover");
        this.calls = new QueueCalls(redis, queue);
        this.meta = bytes(QueueNames.keyBase(prefix, queue) + "meta");
    }

    /**
     * Records this count where none is, and throws an IllegalStateException naming both counts when Redis has
     * another one, or naming the reshard under way; after one check that passed, does nothing. A Redis failure is
     * thrown as a QueueException.
     */
    public void check() {
        if (checked) {
            return;
        }
        List<Long> recorded = record("check", count);
        if (recorded.get(1) != 0) {
            throw new IllegalStateException("Queue '" + queue + "' is being resharded from " + recorded.get(0) + " to "
                    + recorded.get(1) + " shards, or a reshard stopped halfway: run the reshard operation with "
                    + "shards=" + recorded.get(0) + " and the header CamelReliableRedisShards=" + recorded.get(1)
                    + " to finish it, then use shards=" + recorded.get(1));
        }
        requireRecordedCount(recorded.get(0));
        checked = true;
    }

    private void requireRecordedCount(long recorded) {
        if (recorded != count) {
            throw new IllegalStateException("Queue '" + queue + "' has " + recorded + " shard(s), as Redis records it, "
                    + "and this endpoint has shards=" + count + ": with another count, messages would go where no "
                    + "consumer looks. Use shards=" + recorded + "; to change the count, run the reshard operation "
                    + "with shards=" + recorded + " (see the user guide, Sharded queues)");
        }
    }

    /**
     * Moves the queue's messages to the layout of another count, while no consumer runs
     * ({@link ShardMover#requireIdle}), then records that count; a reshard that stopped halfway is finished by
     * running it again. Stop the queue's producers first: a message sent meanwhile with the old count can land in a
     * shard the new count does not have.
     */
    public void reshard(int newCount) {
        if (newCount < 1 || newCount > ShardedQueue.MAX_SHARDS) {
            throw new IllegalArgumentException("A reshard of queue '" + this.queue + "' needs a count between 1 and "
                    + ShardedQueue.MAX_SHARDS + ", not " + newCount);
        }
        List<Long> recorded = record("check", count);
        requireRecordedCount(recorded.get(0));
        if (recorded.get(1) != 0 && recorded.get(1) != newCount) {
            throw new IllegalStateException("Queue '" + this.queue + "' is being resharded to " + recorded.get(1)
                    + " shards, or a reshard stopped halfway: finish it with CamelReliableRedisShards="
                    + recorded.get(1) + " first");
        }
        mover.requireIdle(count);
        record("begin", newCount);
        mover.move(count, newCount);
        record("set", newCount);
        // this endpoint's count is the old one now: its next send or claim is refused
        checked = false;
    }

    private List<Long> record(String operation, int shards) {
        return calls.run(operation.equals("check") ? "check the shard count" : "reshard", SHARD_COUNT,
                ScriptOutputType.MULTI, QueueCalls.keys(meta), bytes(shards), bytes(operation));
    }
}
