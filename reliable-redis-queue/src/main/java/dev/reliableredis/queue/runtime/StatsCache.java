package dev.reliableredis.queue.runtime;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.reliableredis.queue.QueueStats;

/**
 * A queue's stats, read from Redis at most once a second however many gauges, JMX attributes, health checks and
 * consoles ask for them. A failed read is remembered for as long, so that a scrape during an outage does not wait
 * for Redis once per gauge.
 */
public final class StatsCache {

    private static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<QueueStats> source;
    private QueueStats stats;
    private RuntimeException failure;
    private long readAt;

    public StatsCache(Supplier<QueueStats> source) {
        this.source = source;
    }

    /** The stats of at most a second ago; throws what the last read threw when it failed. */
    public synchronized QueueStats get() {
        if ((stats == null && failure == null) || System.nanoTime() - readAt > MAX_AGE_NANOS) {
            try {
                stats = source.get();
                failure = null;
            } catch (RuntimeException e) {
                stats = null;
                failure = e;
            } finally {
                readAt = System.nanoTime();
            }
        }
        if (failure != null) {
            throw failure;
        }
        return stats;
    }

    /** As {@link #get()}, or null when Redis could not be read. */
    public QueueStats getOrNull() {
        try {
            return get();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
