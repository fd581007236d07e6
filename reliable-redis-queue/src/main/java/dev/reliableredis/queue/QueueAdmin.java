package dev.reliableredis.queue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.schedule.ScheduleTicks;

/**
 * A queue's administration: its figures, a look at its messages, redrive, purge, pause and resume. Each is one
 * atomic script call (a sharded queue's, one per shard); none claims or settles a delivery.
 */
public interface QueueAdmin {

    /** The most messages one browse reads: it reads them in one script call, which Redis serves alone. */
    int MAX_BROWSE = 1000;
    /** The longest timed pause: 14 days, as the longest delay (docs/decisions.md); longer, pause until resumed. */
    Duration MAX_PAUSE = Duration.ofDays(14);

    /** The queue's name. */
    String name();

    /**
     * The next tick of the queue's schedule after the last one fired, epoch ms (in the past while it is due), or -1
     * when the queue has no schedule, or none that can be read.
     */
    default long nextTick() {
        return this instanceof QueueSchedules schedules ? ScheduleTicks.next(schedules.scheduleState()) : -1;
    }

    /** {@link #stats()} as a map, with {@code nextTick} (see {@link #nextTick()}) when the queue has a schedule. */
    default Map<String, Long> statsWithSchedule() {
        Map<String, Long> stats = new LinkedHashMap<>(stats().toMap());
        long next = nextTick();
        if (next >= 0) {
            stats.put("nextTick", next);
        }
        return stats;
    }

    /** Moves up to {@code limit} dead letters back to ready; returns how many moved. */
    long redrive(long limit);

    /**
     * Moves one dead letter back to ready, exactly as {@link #redrive(long)} moves each (fresh delivery count,
     * EnqueuedAt kept, failure cleared, wakes a consumer); returns false when the queue has no dead letter with that
     * message id (nothing changes then).
     */
    boolean redrive(String messageId);

    /** Removes every ready, delayed and dead message; returns how many were removed. */
    long purge();

    /**
     * Pauses the queue for every consumer of it in every JVM: once this returns, no claim takes a message until
     * {@link #resume()}, or until {@code duration} has passed (Redis time) when it is positive; zero pauses until
     * resumed; longer than {@link #MAX_PAUSE} is refused. A pause of a paused queue replaces it. Sends, lease
     * extensions, acks, nacks and the reaper go on, and so do dead-letter consumers; a pause outlives consumer
     * restarts. A sharded queue pauses every shard.
     */
    void pause(Duration duration);

    /** Ends the queue's pause and wakes its waiting consumers at once; returns whether it was paused. */
    boolean resume();

    QueueStats stats();

    /**
     * Up to {@code limit} messages of one section, oldest first, read in one atomic script call without claiming or
     * changing anything. limit must be 1..1000 (IllegalArgumentException naming the limit and queue otherwise).
     */
    List<BrowsedMessage> browse(QueueSection section, int limit);
}
