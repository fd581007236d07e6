package dev.reliableredis.queue;

/**
 * How a queue keeps its messages (option mode): Redis Lists with a lease sorted set, or a Redis Stream with a
 * consumer group.
 */
public enum QueueMode {
    LIST("list"), STREAM("stream");

    private final String value;

    QueueMode(String value) {
        this.value = value;
    }

    /** The option's value, as the URI gives it. */
    public String value() {
        return value;
    }

    /** The mode the option's value names; IllegalArgumentException naming the option otherwise. */
    public static QueueMode of(String value) {
        return Options.parse("mode", value, values(), QueueMode::value);
    }
}
