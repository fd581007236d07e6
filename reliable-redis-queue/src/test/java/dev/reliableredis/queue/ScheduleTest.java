package dev.reliableredis.queue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A queue's schedule in Redis, in both modes: declared, read with the server time, fired once per tick whoever
 * fires it, and held while the last tick's message is not settled.
 */
class ScheduleTest extends QueueTestBase {

    private static NewMessage tick(long at) {
        return new NewMessage("orders@" + at, new byte[0], Map.of("CamelReliableRedisScheduledFor", at), 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aScheduleIsDeclaredOnceReplacedByAnotherExpressionAndRemoved(String mode) {
        ReliableQueue queue = queueOfMode(mode, settings(60_000, 3, 100));

        assertThat(schedules(queue).declareSchedule("* * * * * ?", "UTC")).isNull();
        ScheduleState first = schedules(queue).scheduleState();
        assertThat(first.cron()).isEqualTo("* * * * * ?");
        assertThat(first.lastTick()).as("counted from the declaration, on the Redis clock").isBetween(now() - 5_000, now());
        assertThat(schedules(queue).declareSchedule("0 0 2 * * ?", "Europe/Paris")).isEqualTo("* * * * * ?");
        ScheduleState second = schedules(queue).scheduleState();
        assertThat(second.zone()).isEqualTo("Europe/Paris");
        assertThat(second.last()).as("the last tick is kept").isEqualTo(first.last());

        assertThat(schedules(queue).unschedule()).isTrue();
        assertThat(schedules(queue).scheduleState().exists()).isFalse();
        assertThat(schedules(queue).unschedule()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aTickFiresOnceWhoeverFiresItAndTheNextWaitsForItsMessageToSettle(String mode) {
        ReliableQueue queue = queueOfMode(mode, settings(60_000, 3, 100));
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        ScheduleState read = schedules(queue).scheduleState();
        long tick = read.lastTick() + 1_000;
        String previous = "orders@" + read.last();

        assertThat(schedules(queue).fireTicks(read, tick, previous, List.of(tick(tick)))).isEqualTo(ScheduleFired.FIRED);
        assertThat(schedules(queue).fireTicks(read, tick, previous, List.of(tick(tick))))
                .as("another instance with the same reading").isEqualTo(ScheduleFired.STALE);

        ScheduleState after = schedules(queue).scheduleState();
        assertThat(after.lastTick()).isEqualTo(tick);
        List<Delivery> claimed = queue.claim(10);
        assertThat(claimed).extracting(Delivery::messageId).containsExactly("orders@" + tick);
        assertThat(claimed.get(0).headers()).containsEntry("CamelReliableRedisScheduledFor", tick);
        assertThat(schedules(queue).fireTicks(after, tick + 1_000, "orders@" + tick, List.of(tick(tick + 1_000))))
                .as("the last tick runs").isEqualTo(ScheduleFired.HELD);

        queue.ack(List.of(claimed.get(0).lease()));
        assertThat(schedules(queue).fireTicks(after, tick + 1_000, "orders@" + tick, List.of(tick(tick + 1_000))))
                .isEqualTo(ScheduleFired.FIRED);
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), tick + 5_000, "orders@" + (tick + 1_000), List.of()))
                .as("moving past missed ticks while the last one waits").isEqualTo(ScheduleFired.HELD);
        assertThat(counts(queue).ready()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aTickRedrivenAfterANewerOneFiredHoldsTheScheduleUntilItSettles(String mode) {
        ReliableQueue queue = queueOfMode(mode, settings(60_000, 0, 100));
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        ScheduleState read = schedules(queue).scheduleState();
        long first = read.lastTick() + 1_000;
        long second = first + 1_000;
        long third = second + 1_000;
        assertThat(schedules(queue).fireTicks(read, first, "orders@" + read.last(), List.of(tick(first))))
                .isEqualTo(ScheduleFired.FIRED);
        Delivery failed = queue.claim(10).get(0);
        assertThat(queue.nack(List.of(new Failure(failed.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), second, "orders@" + first, List.of(tick(second))))
                .as("a dead tick holds nothing").isEqualTo(ScheduleFired.FIRED);
        queue.ack(List.of(queue.claim(10).get(0).lease()));

        assertThat(queue.redrive(10)).isEqualTo(1);

        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), third, "orders@" + second, List.of(tick(third))))
                .as("the redriven tick is queued").isEqualTo(ScheduleFired.HELD);
        Delivery redriven = queue.claim(10).get(0);
        assertThat(redriven.messageId()).isEqualTo("orders@" + first);
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), third, "orders@" + second, List.of(tick(third))))
                .as("the redriven tick runs").isEqualTo(ScheduleFired.HELD);
        queue.ack(List.of(redriven.lease()));
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), third, "orders@" + second, List.of(tick(third))))
                .isEqualTo(ScheduleFired.FIRED);
        assertThat(queue.claim(10)).extracting(Delivery::messageId).containsExactly("orders@" + third);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aDeadTickIsLeftDeadWhileANewerTickOfItsScheduleRuns(String mode) {
        ReliableQueue queue = queueOfMode(mode, settings(60_000, 0, 100));
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        ScheduleState read = schedules(queue).scheduleState();
        long first = read.lastTick() + 1_000;
        long second = first + 1_000;
        schedules(queue).fireTicks(read, first, "orders@" + read.last(), List.of(tick(first)));
        Delivery failed = queue.claim(10).get(0);
        assertThat(queue.nack(List.of(new Failure(failed.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), second, "orders@" + first, List.of(tick(second))))
                .isEqualTo(ScheduleFired.FIRED);
        Delivery running = queue.claim(10).get(0);
        assertThat(running.messageId()).isEqualTo("orders@" + second);

        assertThat(queue.redrive(10)).as("the newer tick runs").isZero();
        assertThat(queue.redrive("orders@" + first)).isFalse();
        assertThat(counts(queue).dead()).isEqualTo(1);

        queue.ack(List.of(running.lease()));
        assertThat(queue.redrive(10)).isEqualTo(1);
        assertThat(queue.claim(10)).extracting(Delivery::messageId).containsExactly("orders@" + first);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aRedriveMovesOneDeadTickOfASchedule(String mode) {
        ReliableQueue queue = queueOfMode(mode, settings(60_000, 0, 100));
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        ScheduleState read = schedules(queue).scheduleState();
        long first = read.lastTick() + 1_000;
        long second = first + 1_000;
        schedules(queue).fireTicks(read, first, "orders@" + read.last(), List.of(tick(first)));
        queue.nack(List.of(new Failure(queue.claim(10).get(0).lease(), "boom")));
        schedules(queue).fireTicks(schedules(queue).scheduleState(), second, "orders@" + first, List.of(tick(second)));
        queue.nack(List.of(new Failure(queue.claim(10).get(0).lease(), "boom")));
        assertThat(counts(queue).dead()).isEqualTo(2);

        assertThat(queue.redrive(10)).isEqualTo(1);
        Delivery redriven = queue.claim(10).get(0);
        assertThat(queue.redrive(10)).as("the redriven tick runs").isZero();
        queue.ack(List.of(redriven.lease()));
        assertThat(queue.redrive(10)).isEqualTo(1);
        assertThat(queue.claim(10)).extracting(Delivery::messageId)
                .doesNotContain(redriven.messageId()).hasSize(1);
    }

    /**
     * The schedule of an endpoint that checked the shard count before a reshard: its next tick is refused by the
     * marker the script reads, firing nothing and leaving the last tick where it was.
     */
    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aTickOfAnEndpointWhoseCountTheMarkerNoLongerSaysIsRefused(String mode) {
        ReliableQueue queue = Queues.open(gateway, "rr", "orders", 1, mode.equals("stream") ? group("g", "c1") : null,
                settings(60_000, 3, 100));
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        ScheduleState read = schedules(queue).scheduleState();
        long tick = read.lastTick() + 1_000;
        // as a reshard to 2 records it
        gateway.commands().hset(bytes("rr:{orders}:meta"), bytes("shards"), bytes("2"));

        assertThatThrownBy(() -> schedules(queue).fireTicks(read, tick, "orders@" + read.last(), List.of(tick(tick))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Queue 'orders' has 2 shard(s)")
                .hasMessageContaining("shards=1");
        assertThat(schedules(queue).scheduleState().last()).as("the last tick fired").isEqualTo(read.last());
        assertThat(counts(queue).ready()).isZero();
    }

    /** A list-mode or stream-mode queue of one shard: the kinds with a schedule. */
    private static QueueSchedules schedules(ReliableQueue queue) {
        return (QueueSchedules) queue;
    }
}
