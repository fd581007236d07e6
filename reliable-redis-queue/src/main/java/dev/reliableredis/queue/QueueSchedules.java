package dev.reliableredis.queue;

import java.util.List;

import dev.reliableredis.queue.schedule.ScheduleFired;
import dev.reliableredis.queue.schedule.ScheduleState;

/**
 * The schedule of a queue, what a list-mode or stream-mode queue of one shard has (a schedule is kept on one queue:
 * a sharded queue has none, and an endpoint refuses the two together). Fired by {@code runtime.ScheduleFirer}.
 */
public interface QueueSchedules {

    /** The queue's name, as {@link ReliableQueue#name}. */
    String name();

    /**
     * Stores the queue's schedule, a cron expression in a time zone, replacing another one (see
     * schedule-declare.lua); returns the expression it replaced, or null.
     */
    String declareSchedule(String cron, String zone);

    /** The queue's schedule as Redis keeps it, with the server time. */
    ScheduleState scheduleState();

    /**
     * Enqueues the messages of due ticks and moves the schedule's last tick fired to {@code last}, when the schedule
     * is still the one of {@code state} (see list/schedule-fire.lua and stream/schedule-fire.lua).
     *
     * @param previousId the message id of the tick fired last, which must be settled before another one fires
     */
    ScheduleFired fireTicks(ScheduleState state, long last, String previousId, List<NewMessage> ticks);

    /** Removes the queue's schedule; returns whether it had one. */
    boolean unschedule();
}
