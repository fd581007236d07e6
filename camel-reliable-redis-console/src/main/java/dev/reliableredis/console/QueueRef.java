package dev.reliableredis.console;

/**
 * One row of the dashboard: a list-mode queue, or one consumer group of a stream-mode queue (each group has its
 * own ready, in-flight and retry counts). A sharded queue is one row, over all its shards.
 *
 * @param name   the queue name
 * @param mode   list or stream
 * @param group  stream mode: the consumer group, or null while the stream has none; list mode: null
 * @param shards     the queue's shards, 1 when it is not sharded
 * @param unreadable why the queue's keys cannot be read as the component writes them (another program wrote one),
 *                   else null
 */
record QueueRef(String name, QueueMode mode, String group, int shards, String unreadable) {

    /** A readable queue's row. */
    QueueRef(String name, QueueMode mode, String group, int shards) {
        this(name, mode, group, shards, null);
    }

    /** An unsharded queue's row. */
    QueueRef(String name, QueueMode mode, String group) {
        this(name, mode, group, 1);
    }
}
