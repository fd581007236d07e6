package dev.reliableredis.queue;

import java.time.ZoneId;
import java.time.ZonedDateTime;

import dev.reliableredis.queue.schedule.ScheduleTicks;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which tick of a Quartz cron expression fires, from the last one fired and the time, under each missed policy. */
class ScheduleTicksTest {

    private static final ScheduleTicks EVERY_SECOND = ScheduleTicks.parse("* * * * * ?", "UTC");
    private static final long T = 1_800_000_000_000L;

    @Test
    void theOldestTickOnTimeFiresOneAtATime() {
        ScheduleTicks.Due due = EVERY_SECOND.due(T, T + 2_500, ScheduleTicks.Missed.FIRE_ONCE);

        assertThat(due.tick()).isEqualTo(T + 1_000);
        assertThat(due.last()).isEqualTo(T + 1_000);
        assertThat(EVERY_SECOND.due(T, T + 999, ScheduleTicks.Missed.FIRE_ONCE))
                .isEqualTo(new ScheduleTicks.Due(null, T, T + 1_000));
    }

    @Test
    void ticksMoreThanAMinuteLateAreMissedAndThePolicySaysWhatFires() {
        long now = T + 120_000;

        ScheduleTicks.Due once = EVERY_SECOND.due(T, now, ScheduleTicks.Missed.FIRE_ONCE);
        ScheduleTicks.Due skip = EVERY_SECOND.due(T, now, ScheduleTicks.Missed.SKIP);
        ScheduleTicks.Due all = EVERY_SECOND.due(T, now, ScheduleTicks.Missed.ALL);

        assertThat(once.tick()).as("a tick on time fires, the missed ones do not").isEqualTo(now - 60_000);
        assertThat(skip.tick()).isEqualTo(now - 60_000);
        assertThat(all.tick()).as("all: the oldest missed one first").isEqualTo(T + 1_000);
        assertThat(EVERY_SECOND.due(T, T + 300_000, ScheduleTicks.Missed.ALL).tick())
                .as("of the latest 100 missed").isEqualTo(T + 300_000 - 60_000 - 100_000);
        ScheduleTicks daily = ScheduleTicks.parse("0 0 2 * * ?", "UTC");
        long lastNight = ZonedDateTime.of(2027, 1, 10, 2, 0, 0, 0, ZoneId.of("UTC")).toInstant().toEpochMilli();
        long morning = lastNight + 4 * 3_600_000;
        assertThat(daily.due(lastNight - 86_400_000, morning, ScheduleTicks.Missed.FIRE_ONCE).tick())
                .as("fireOnce: the latest missed tick, once").isEqualTo(lastNight);
        ScheduleTicks.Due skipped = daily.due(lastNight - 86_400_000, morning, ScheduleTicks.Missed.SKIP);
        assertThat(skipped.tick()).isNull();
        assertThat(skipped.last()).as("skip moves past it").isEqualTo(lastNight);
    }

    @Test
    void theTimeZoneIsTheExpressions() {
        ScheduleTicks paris = ScheduleTicks.parse("0 0 2 * * ?", "Europe/Paris");
        long midnightUtc = ZonedDateTime.of(2027, 1, 10, 0, 0, 0, 0, ZoneId.of("UTC")).toInstant().toEpochMilli();

        assertThat(paris.next(midnightUtc)).as("2 am in Paris is 1 am UTC in winter").isEqualTo(midnightUtc + 3_600_000);
    }

    @Test
    void aBadExpressionOrTimeZoneIsRefusedNamingIt() {
        assertThatThrownBy(() -> ScheduleTicks.parse("every day", "UTC")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schedule 'every day' is not a Quartz cron expression");
        assertThatThrownBy(() -> ScheduleTicks.parse("0 0 2 * * ?", "Mars/Olympus"))
                .hasMessageContaining("scheduleTimeZone 'Mars/Olympus'");
        assertThatThrownBy(() -> ScheduleTicks.Missed.of("never")).hasMessageContaining("missedTicks")
                .hasMessageContaining("'never'");
    }
}
