package dev.reliableredis.queue.keys;

/**
 * The layout of a queue's keys and values that this engine reads and writes, recorded per queue beside its shard
 * count (field {@code layout} of each shard's {@code meta} hash; see {@code sharded.ShardCount}). An endpoint that
 * finds another version, or messages in a queue with no version recorded, refuses the queue: nothing is migrated,
 * so a queue is drained and its old JVMs stopped before a new version uses it (docs/deployment.md, "Upgrade
 * notes").
 */
public final class QueueLayout {

    /**
     * The version: none recorded (1) up to 0.1.0; 2 since list mode's lease tokens are claim ids (letters, dots),
     * which the claim and reap of version 1 read as unreadable delivery states; 3 since a list-mode message's time to
     * live, priority and group are one field of {@code extras} (three hashes before) and its lease has flags for it.
     */
    public static final String VERSION = "3";

    private QueueLayout() {
    }

    /** The refusal of a queue whose shard's record ({@code meta}) says {@code found}, '' for none. */
    public static IllegalStateException refused(String queue, String meta, String found) {
        String what = found.isEmpty()
                ? "holds messages written before layout versions were recorded (no version in " + meta + ")"
                : "has layout version " + found + " (" + meta + ")";
        return new IllegalStateException("Queue '" + queue + "' " + what + ", and this engine reads and writes version "
                + VERSION + ": drain the queue with the version that wrote it and stop its JVMs before this one "
                + "uses it (see the upgrade notes in docs/deployment.md)");
    }
}
