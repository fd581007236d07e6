package dev.reliableredis.queue;

/**
 * How a queue keeps its messages (option mode): Redis Lists with a lease sorted set, or a Redis Stream with a
 * consumer group.
 */
public enum QueueMode implements OptionValue {
    LIST, STREAM;

    /** The mode the option's value names; IllegalArgumentException naming the option otherwise. */
    public static QueueMode of(String value) {
        return Options.parse("mode", value, values());
    }
}
