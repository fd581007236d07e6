package dev.reliableredis.queue.calls;

import java.util.List;

import dev.reliableredis.queue.QueueSchedules;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.schedule.ScheduleState;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.calls.QueueCalls.keys;
import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/** A queue's schedule hash, the same in both modes (see schedule-declare.lua); firing it is each mode's own. */
public final class QueueSchedule {

    private static final LuaScript DECLARE = LuaScript.load("schedule-declare");
    private static final LuaScript READ = LuaScript.load("schedule-read");

    private final RedisGateway redis;
    private final QueueCalls calls;
    private final byte[] key;

    public QueueSchedule(RedisGateway redis, QueueCalls calls, byte[] key) {
        this.redis = redis;
        this.calls = calls;
        this.key = key;
    }

    /**
     * The message id of the schedule's tick at {@code tick} (epoch ms): {@code <queue>@<tick>}, so that a tick is
     * enqueued once, and a redrive knows a tick by its id.
     */
    public static String tickId(String queue, long tick) {
        return tickIdPrefix(queue) + tick;
    }

    /** What the message ids of the queue's ticks start with. */
    public static String tickIdPrefix(String queue) {
        return queue + "@";
    }

    /** See {@link QueueSchedules#declareSchedule}. */
    public String declare(String cron, String zone) {
        List<Object> before = calls.run("schedule", DECLARE, ScriptOutputType.MULTI, keys(key), bytes(cron),
                bytes(zone));
        return text(before.get(0));
    }

    /** See {@link QueueSchedules#scheduleState}. */
    public ScheduleState state() {
        return ScheduleState.ofReply(calls.run("schedule", READ, ScriptOutputType.MULTI, keys(key)));
    }

    /** See {@link QueueSchedules#unschedule}. */
    public boolean remove() {
        return calls.run("unschedule", () -> redis.commands().del(key)) == 1;
    }
}
