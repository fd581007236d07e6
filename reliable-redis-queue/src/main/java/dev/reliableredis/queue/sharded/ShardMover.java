package dev.reliableredis.queue.sharded;

import java.util.List;

/**
 * Moves a queue's messages from the layout of one shard count to another's: the mode's part of a reshard, and of
 * the check of a queue's record ({@link ShardCount}).
 */
public interface ShardMover {

    /** The keys of the shard named {@code shard} that hold its messages, where the layout check looks for any. */
    List<byte[]> messageKeys(String shard);

    /** Throws an IllegalStateException naming what is under way when the queue of {@code shards} is consumed. */
    void requireIdle(int shards);

    /** Moves every message from the layout of {@code from} shards to that of {@code to}; returns how many moved. */
    long move(int from, int to);
}
