package dev.reliableredis.queue.schedule;

import dev.reliableredis.queue.internal.RedisBytes;

/**
 * A queue's schedule as Redis keeps it (see schedule-declare.lua), read with the server time.
 *
 * @param cron the cron expression, or null when the queue has no schedule
 * @param zone its time zone id
 * @param last the last tick fired, epoch ms, as stored
 * @param now  the Redis server time, epoch ms
 */
public record ScheduleState(String cron, String zone, String last, long now) {

    public boolean exists() {
        return cron != null;
    }

    public long lastTick() {
        return Long.parseLong(last);
    }

    /** The state of a schedule-read reply: {cron, zone, last, now}. */
    public static ScheduleState ofReply(java.util.List<Object> reply) {
        return new ScheduleState(RedisBytes.text(reply.get(0)), RedisBytes.text(reply.get(1)),
                RedisBytes.text(reply.get(2)), (Long) reply.get(3));
    }
}
