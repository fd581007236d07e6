package dev.reliableredis.queue.schedule;

/** What a call to fire a schedule's ticks did (see list/schedule-fire.lua and stream/schedule-fire.lua). */
public enum ScheduleFired {
    /** The ticks' messages were enqueued and the last tick fired moved on. */
    FIRED,
    /** Nothing: the schedule changed, was removed, or another instance fired these ticks. */
    STALE,
    /** Nothing: the last tick's message is not settled yet, and the ticks of a schedule never run at once. */
    HELD;

    public static ScheduleFired of(long code) {
        return code == 1 ? FIRED : code == 0 ? STALE : HELD;
    }
}
