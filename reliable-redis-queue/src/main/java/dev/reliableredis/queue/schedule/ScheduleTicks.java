package dev.reliableredis.queue.schedule;

import java.text.ParseException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.Deque;
import java.util.Locale;
import java.util.TimeZone;

import org.quartz.CronExpression;

/**
 * The ticks of a schedule that are due, from a Quartz cron expression (with seconds, as camel-quartz takes it), the
 * last tick fired and the Redis server time. A tick more than {@link #MISFIRE_MS} late is missed, as Quartz's
 * misfire threshold has it, and the {@link Missed} policy says what fires for missed ticks.
 */
public final class ScheduleTicks {

    /**
     * The stored header that carries the tick a schedule's message was fired for, epoch ms: the Camel layer's
     * CamelReliableRedisScheduledFor. A Camel header name, which consumers do not let in.
     */
    public static final String SCHEDULED_FOR_HEADER = "CamelReliableRedisScheduledFor";
    /** Quartz's default misfire threshold: a tick later than this is missed. */
    public static final long MISFIRE_MS = 60_000;
    /** The most missed ticks {@link Missed#ALL} fires at once. */
    public static final int MAX_MISSED = 100;
    /** How far back missed ticks are looked for, which bounds the work after a long stop. */
    private static final long LOOK_BACK_MS = 86_400_000;

    /** What fires for ticks more than a minute late. */
    public enum Missed {
        /** The latest of them fires once, unless a tick on time fires anyway (Quartz's fire-once-now). */
        FIRE_ONCE,
        /** None of them fires. */
        SKIP,
        /** Each fires, the latest {@link #MAX_MISSED} of the last day. */
        ALL;

        /** The policy of the option value fireOnce, skip or all; refuses another, naming it. */
        public static Missed of(String option) {
            return switch (option) {
                case "fireOnce" -> FIRE_ONCE;
                case "skip" -> SKIP;
                case "all" -> ALL;
                default -> throw new IllegalArgumentException("missedTicks must be fireOnce, skip or all, was '"
                        + option + "'");
            };
        }
    }

    /**
     * What to fire now: at most one tick at a time, since the ticks of one schedule never run at once.
     *
     * @param tick    the tick to fire now (epoch ms), or null for none
     * @param last    the schedule's last tick fired once this call is done: the tick, or when none fires the latest
     *                due one (missed ticks skipped), or the one before when none is due
     * @param nextDue the first tick after the due ones (epoch ms), or {@link Long#MAX_VALUE} when there is none
     */
    public record Due(Long tick, long last, long nextDue) {
    }

    private final CronExpression cron;

    private ScheduleTicks(CronExpression cron) {
        this.cron = cron;
    }

    /** Parses the expression in the time zone; refuses a bad one, naming it and what is wrong. */
    public static ScheduleTicks parse(String expression, String zone) {
        TimeZone timeZone;
        try {
            timeZone = TimeZone.getTimeZone(ZoneId.of(zone));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("scheduleTimeZone '" + zone + "' is not a time zone id such as UTC or "
                    + "Europe/Paris");
        }
        try {
            CronExpression cron = new CronExpression(expression);
            cron.setTimeZone(timeZone);
            return new ScheduleTicks(cron);
        } catch (ParseException e) {
            throw new IllegalArgumentException("schedule '" + expression + "' is not a Quartz cron expression (seconds "
                    + "minutes hours day-of-month month day-of-week [year], e.g. 0 0 2 * * ?): "
                    + e.getMessage().toLowerCase(Locale.ROOT));
        } catch (NoClassDefFoundError e) {
            throw new IllegalStateException("schedule needs org.quartz-scheduler:quartz on the class path: its "
                    + "CronExpression reads the expression, as camel-quartz's does", e);
        }
    }

    /**
     * The next tick of the schedule after its last one fired, or -1 when there is no schedule, or its expression
     * cannot be read, or it has no tick any more.
     */
    public static long next(ScheduleState state) {
        if (!state.exists()) {
            return -1;
        }
        try {
            long next = parse(state.cron(), state.zone()).next(state.lastTick());
            return next == Long.MAX_VALUE ? -1 : next;
        } catch (IllegalArgumentException | IllegalStateException unreadable) {
            return -1;
        }
    }

    /** The first tick after the time, or {@link Long#MAX_VALUE} when there is none. */
    public long next(long afterMs) {
        Date next = cron.getNextValidTimeAfter(new Date(afterMs));
        return next == null ? Long.MAX_VALUE : next.getTime();
    }

    /**
     * The tick after {@code last} up to {@code now} that fires first, as the policy says: the oldest tick on time (at
     * most {@link #MISFIRE_MS} late); before it, with {@link Missed#ALL}, the oldest of the latest
     * {@link #MAX_MISSED} missed ones; with {@link Missed#FIRE_ONCE} and no tick on time, the latest missed one.
     */
    public Due due(long last, long now, Missed missed) {
        Deque<Long> late = new ArrayDeque<>();
        Long onTime = null;
        long latest = last;
        long tick = next(Math.max(last, now - LOOK_BACK_MS));
        for (; tick <= now; tick = next(tick)) {
            latest = tick;
            if (now - tick > MISFIRE_MS) {
                late.addLast(tick);
                if (late.size() > MAX_MISSED) {
                    late.removeFirst();
                }
            } else if (onTime == null) {
                onTime = tick;
            }
        }
        Long fire = onTime;
        if (missed == Missed.ALL && !late.isEmpty()) {
            fire = late.getFirst();
        } else if (missed == Missed.FIRE_ONCE && onTime == null && !late.isEmpty()) {
            fire = late.getLast();
        }
        return new Due(fire, fire != null ? fire : latest, tick);
    }
}
