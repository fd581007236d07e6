package dev.reliableredis.queue.sharded;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.keys.QueueLayout;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * A queue's record in Redis ({@code <prefix>:{<queue>}:meta}): the layout version of its keys ({@link QueueLayout},
 * field {@code layout}) and its shard count (field {@code shards}), the count it was first used with, so that an
 * endpoint with another one is refused rather than leaving the messages of the shards it does not know stranded
 * (never counted, consumed or reaped). Checked once per endpoint, before its first send or claim; a queue used
 * unsharded records no count, and counts as 1. A reshard moves the messages to the
 * layout of a new count ({@link ShardMover}) and records it; while it does, every endpoint is refused.
 *
 * <p>Each shard keeps the record, its marker, in its own meta hash ({@code <prefix>:{<queue>#<i>}:meta}), in its
 * own slot: the scripts that send and claim compare it with the endpoint's count on every call, so that an endpoint
 * that checked before a reshard is refused at its next send or claim ({@link #refusal}). A sharded endpoint's first
 * check records its count in the marker of each of its shards that has none; a reshard writes the markers of every
 * shard of the old and the new count.
 */
public final class ShardCount {

    private static final LuaScript SHARD_COUNT = LuaScript.load("shard-count");
    /** The error of a send or claim script whose shard's marker is not the endpoint's count (includes/shards). */
    /** The refusal, wherever Redis puts it in the error (7 adds the script and line after it, 6.2 before it). */
    private static final Pattern REFUSED = Pattern.compile("SHARDS (\\d+) (\\d+) (\\d+) \\S*\\{([^{}]+)}:meta");

    private final String prefix;
    private final String queue;
    private final int count;
    private final ShardMover mover;
    private final QueueCalls calls;
    private volatile boolean checked;

    /** @param mover moves the queue's messages for a reshard, in its mode */
    public ShardCount(RedisGateway redis, String prefix, String queue, int count, ShardMover mover) {
        this.prefix = prefix;
        this.queue = queue;
        this.count = count;
        this.mover = Objects.requireNonNull(mover, "mover");
        this.calls = new QueueCalls(redis, queue);
    }

    /** The meta hash of a shard, named as {@link QueueNames#shard} names it, which holds its marker. */
    public static byte[] metaKey(String prefix, String shardName) {
        return bytes(QueueNames.keyBase(prefix, shardName) + "meta");
    }

    /**
     * Records this count and the engine's layout version where none is, and throws an IllegalStateException naming
     * what Redis has when it records another count or another version, when a shard holds messages with no version
     * recorded (written before versions were), or naming the reshard under way; after one check that passed, does
     * nothing. A sharded endpoint checks the record of each of its shards, shard 0 first. A Redis failure is thrown
     * as a QueueException.
     */
    public void check() {
        if (checked) {
            return;
        }
        for (int shard = 0; shard < count; shard++) {
            List<Object> recorded = record(shard, "check", count);
            requireLayout(shard, recorded);
            if ((Long) recorded.get(1) != 0) {
                throw resharding(queue, (Long) recorded.get(0), (Long) recorded.get(1));
            }
            requireRecordedCount((Long) recorded.get(0));
        }
        checked = true;
    }

    /**
     * As {@link #check}, for the layout version only and recording nothing: for a reader such as the dashboard,
     * which opens queues it did not create.
     */
    public void requireLayout() {
        for (int shard = 0; shard < count; shard++) {
            requireLayout(shard, record(shard, "look", count));
        }
    }

    private void requireLayout(int shard, List<Object> recorded) {
        String layout = text(recorded.get(2));
        if (!layout.equals(QueueLayout.VERSION)) {
            throw QueueLayout.refused(queue, text(metaKey(prefix, QueueNames.shard(queue, shard))), layout);
        }
    }

    private void requireRecordedCount(long recorded) {
        if (recorded != count) {
            throw otherCount(queue, recorded, count);
        }
    }

    private static IllegalStateException resharding(String queue, long from, long to) {
        return new IllegalStateException("Queue '" + queue + "' is being resharded from " + from + " to " + to
                + " shards, or a reshard stopped halfway: run the reshard operation with shards=" + from
                + " and the header CamelReliableRedisShards=" + to + " to finish it, then use shards=" + to);
    }

    private static IllegalStateException otherCount(String queue, long recorded, long count) {
        return new IllegalStateException("Queue '" + queue + "' has " + recorded + " shard(s), as Redis records it, "
                + "and this endpoint has shards=" + count + ": with another count, messages would go where no "
                + "consumer looks. Use shards=" + recorded + "; to change the count, run the reshard operation "
                + "with shards=" + recorded + " (see docs/guide/queue-control.md, Sharded queues)");
    }

    /**
     * The IllegalStateException {@link #check} throws, for the error of a send or claim script that found a shard's
     * marker at odds with the endpoint's count (includes/shards.lua), naming the queue of that shard (a hand-off's
     * target, for one); null for any other error.
     */
    public static IllegalStateException refusal(String redisError) {
        Matcher refused = redisError == null ? null : REFUSED.matcher(redisError);
        if (refused == null || !refused.find()) {
            return null;
        }
        String queue = QueueNames.queueOfShard(refused.group(4));
        long recorded = Long.parseLong(refused.group(1));
        long resharding = Long.parseLong(refused.group(2));
        return resharding != 0 ? resharding(queue, recorded, resharding)
                : otherCount(queue, recorded, Long.parseLong(refused.group(3)));
    }

    /**
     * Moves the queue's messages to the layout of another count, while no consumer runs
     * ({@link ShardMover#requireIdle}), then records that count; a reshard that stopped halfway is finished by
     * running it again. The markers of every shard of both counts say so meanwhile, shard 0's first and, at the
     * end, last: a send or claim with either count is refused until the new count is recorded everywhere.
     */
    public void reshard(int newCount) {
        if (newCount < 1 || newCount > ShardedQueue.MAX_SHARDS) {
            throw new IllegalArgumentException("A reshard of queue '" + this.queue + "' needs a count between 1 and "
                    + ShardedQueue.MAX_SHARDS + ", not " + newCount);
        }
        List<Object> recorded = record(0, "check", count);
        requireLayout(0, recorded);
        for (int shard = 1; shard < count; shard++) {
            requireLayout(shard, record(shard, "look", count));
        }
        long resharding = (Long) recorded.get(1);
        requireRecordedCount((Long) recorded.get(0));
        if (resharding != 0 && resharding != newCount) {
            throw new IllegalStateException("Queue '" + this.queue + "' is being resharded to " + resharding
                    + " shards, or a reshard stopped halfway: finish it with CamelReliableRedisShards="
                    + resharding + " first");
        }
        mover.requireIdle(count);
        int shards = Math.max(count, newCount);
        for (int shard = 0; shard < shards; shard++) {
            record(shard, "begin", newCount);
        }
        mover.move(count, newCount);
        for (int shard = shards - 1; shard >= 0; shard--) {
            record(shard, "set", newCount);
        }
        // this endpoint's count is the old one now: its next send or claim is refused
        checked = false;
    }

    private List<Object> record(int shard, String operation, int shards) {
        String name = QueueNames.shard(queue, shard);
        List<byte[]> keys = new ArrayList<>();
        keys.add(metaKey(prefix, name));
        keys.addAll(mover.messageKeys(name));
        return calls.run(operation.equals("begin") || operation.equals("set") ? "reshard" : "check the shard count",
                SHARD_COUNT, ScriptOutputType.MULTI, keys.toArray(new byte[0][]), bytes(shards), bytes(operation),
                bytes(count), bytes(QueueLayout.VERSION));
    }
}
