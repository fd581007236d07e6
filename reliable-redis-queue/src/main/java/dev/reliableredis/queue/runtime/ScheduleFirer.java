package dev.reliableredis.queue.runtime;

import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSchedules;
import dev.reliableredis.queue.calls.QueueSchedule;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.schedule.ScheduleFired;
import dev.reliableredis.queue.schedule.ScheduleState;
import dev.reliableredis.queue.schedule.ScheduleTicks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires a queue's schedule from a consumer's housekeeping thread. It declares the schedule (replacing another
 * expression in Redis), then reads it with the Redis clock, works out the due ticks, and enqueues their messages
 * through the engine's fire call, which fires only while the schedule is as read: every instance that declares the
 * schedule runs one, and whichever sees a tick first fires it, once. An instance still declaring an older expression
 * follows the one in Redis, with a WARN.
 */
public final class ScheduleFirer {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleFirer.class);
    /** The longest wait between two reads of the schedule, so that a change in Redis is seen within it. */
    private static final long MAX_WAIT_MS = 1000;
    /** The wait while the last tick's message is not settled. */
    private static final long HELD_WAIT_MS = 100;

    private final QueueSchedules queue;
    private final String cron;
    private final String zone;
    private final ScheduleTicks.Missed missed;
    private final ScheduledExecutorService thread;
    private final OutageReport outage;
    private boolean declared;
    /** The expression and zone of the ticks in use, and what they parsed to. */
    private String parsedFrom;
    private ScheduleTicks ticks;
    private String warned;

    public ScheduleFirer(QueueSchedules queue, String cron, String zone, ScheduleTicks.Missed missed,
            ScheduledExecutorService thread, OutageReport outage) {
        this.queue = queue;
        this.cron = cron;
        this.zone = zone;
        this.missed = missed;
        this.thread = thread;
        this.outage = outage;
    }

    public void start() {
        schedule(0);
    }

    private void round() {
        long wait = MAX_WAIT_MS;
        try {
            if (!declared) {
                declare();
            }
            ScheduleState state = queue.scheduleState();
            wait = state.exists() ? fireDue(state) : removed();
            outage.succeeded("schedule");
        } catch (IllegalArgumentException badStored) {
            warnOnce("The schedule of queue '" + queue.name() + "' in Redis cannot be followed: "
                     + badStored.getMessage());
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            outage.failed("schedule", e);
        }
        schedule(wait);
    }

    private void declare() {
        String before = queue.declareSchedule(cron, zone);
        declared = true;
        if (before != null && !before.equals(cron)) {
            LOG.warn("The schedule of queue '{}' was '{}' in Redis; this consumer replaced it with '{}'", queue.name(),
                    OneLine.of(before), cron);
        }
    }

    /** Fires what is due; returns how long to wait before the next read. */
    private long fireDue(ScheduleState state) {
        if (!state.cron().equals(cron) || !state.zone().equals(zone)) {
            warnOnce("The schedule of queue '" + queue.name() + "' is '" + state.cron() + "' (" + state.zone()
                     + ") in Redis, not this consumer's '" + cron + "' (" + zone + "): it follows Redis");
        }
        ScheduleTicks current = ticksOf(state);
        ScheduleTicks.Due due = current.due(state.lastTick(), state.now(), missed);
        if (due.last() == state.lastTick()) {
            return Math.max(1, Math.min(MAX_WAIT_MS, due.nextDue() - state.now()));
        }
        List<NewMessage> messages = due.tick() == null ? List.of() : List.of(message(due.tick()));
        ScheduleFired fired = queue.fireTicks(state, due.last(), tickId(state.lastTick()), messages);
        if (fired == ScheduleFired.FIRED && due.tick() != null) {
            LOG.debug("Queue '{}' fired the tick {} of its schedule", queue.name(), due.tick());
        }
        return fired == ScheduleFired.HELD ? HELD_WAIT_MS : 0;
    }

    private long removed() {
        warnOnce("The schedule of queue '" + queue.name() + "' was removed from Redis (unschedule): this consumer "
                 + "fires nothing until it is restarted");
        return MAX_WAIT_MS;
    }

    private ScheduleTicks ticksOf(ScheduleState state) {
        String from = state.cron() + "\n" + state.zone();
        if (!from.equals(parsedFrom)) {
            ticks = ScheduleTicks.parse(state.cron(), state.zone());
            parsedFrom = from;
        }
        return ticks;
    }

    private NewMessage message(long tick) {
        return new NewMessage(tickId(tick), new byte[0], Map.of(ScheduleTicks.SCHEDULED_FOR_HEADER, tick), 0);
    }

    private String tickId(long tick) {
        return QueueSchedule.tickId(queue.name(), tick);
    }

    private void warnOnce(String warning) {
        if (!warning.equals(warned)) {
            warned = warning;
            LOG.warn("{}", OneLine.of(warning));
        }
    }

    private void schedule(long delayMs) {
        try {
            thread.schedule(this::round, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the consumer stopped
        }
    }
}
