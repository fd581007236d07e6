package dev.reliableredis.queue.sharded;

/** Moves a queue's messages from the layout of one shard count to another's: the mode's part of a reshard. */
public interface ShardMover {

    /** Throws an IllegalStateException naming what is under way when the queue of {@code shards} is consumed. */
    void requireIdle(int shards);

    /** Moves every message from the layout of {@code from} shards to that of {@code to}; returns how many moved. */
    long move(int from, int to);
}
