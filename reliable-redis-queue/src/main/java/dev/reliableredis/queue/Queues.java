package dev.reliableredis.queue;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.list.ListReshard;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardCount;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.queue.stream.StreamReshard;

/** Makes the queue an endpoint or the dashboard works on: one mode, sharded or not, named as the layout names it. */
public final class Queues {

    private Queues() {
    }

    /**
     * The queue {@code name} under the prefix: in stream mode with these options, in list mode when they are null;
     * over {@code shards} shards when more than 1 (shard i named {@link QueueNames#shard}). Its sends and claims
     * are refused when Redis records another shard count (see {@code sharded.ShardCount}); check the layout version
     * with {@link #shardCount} first.
     */
    public static ReliableQueue open(RedisGateway redis, String keyPrefix, String name, int shards,
            StreamOptions stream, QueueSettings settings) {
        if (shards > 1) {
            return ShardedQueue.of(name, shards, i -> one(redis, keyPrefix, QueueNames.shard(name, i), stream,
                    settings, shards));
        }
        return one(redis, keyPrefix, name, stream, settings, shards);
    }

    /**
     * The record in Redis of the queue's shard count and layout version, as {@link #open} names the queue: its
     * {@link ShardCount#check} comes before the queue's first send or claim, and refuses a queue that another count or
     * layout version wrote.
     */
    public static ShardCount shardCount(RedisGateway redis, String keyPrefix, String name, int shards,
            StreamOptions stream) {
        return new ShardCount(redis, keyPrefix, name, shards, stream != null
                ? new StreamReshard(redis, keyPrefix, name, stream) : new ListReshard(redis, keyPrefix, name));
    }

    private static ReliableQueue one(RedisGateway redis, String keyPrefix, String name, StreamOptions stream,
            QueueSettings settings, int shards) {
        return stream != null ? StreamQueue.of(redis, keyPrefix, name, stream, settings, shards)
                : ListQueue.of(redis, keyPrefix, name, settings, shards);
    }
}
