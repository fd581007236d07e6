package dev.reliableredis.queue;

import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.schedule.ScheduleFired;
import dev.reliableredis.queue.schedule.ScheduleState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A queue's schedule in Redis, in both modes: declared, read with the server time, fired once per tick whoever
 * fires it, and held while the last tick's message is not settled.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ScheduleTest extends QueueTestBase {

    private static NewMessage tick(long at) {
        return new NewMessage("orders@" + at, new byte[0], Map.of("CamelReliableRedisScheduledFor", at), 0);
    }

    /** Declares a schedule that ticks every second, in UTC, and reads it back. */
    private static ScheduleState declaredEverySecond(ReliableQueue queue) {
        schedules(queue).declareSchedule("* * * * * ?", "UTC");
        return schedules(queue).scheduleState();
    }

    /** Fires the tick at {@code at} from the schedule as read in {@code state}; {@code previous} is the last tick. */
    private static ScheduleFired fire(ReliableQueue queue, ScheduleState state, long at, String previous) {
        return schedules(queue).fireTicks(state, at, previous, List.of(tick(at)));
    }

    /** Fires the tick at {@code at} from the schedule as Redis has it now. */
    private static ScheduleFired fireNow(ReliableQueue queue, long at, String previous) {
        return fire(queue, schedules(queue).scheduleState(), at, previous);
    }

    /** Claims the next message and fails it: with maxRetries 0, it is dead-lettered. */
    private static List<Settled> failNext(ReliableQueue queue) {
        return queue.nack(List.of(new Failure(queue.claim(10).get(0).lease(), "boom")));
    }

    /** Declares the schedule and fires its first tick, whose message fails and is dead-lettered; returns the tick. */
    private static long firstTickDeadLettered(ReliableQueue queue) {
        ScheduleState read = declaredEverySecond(queue);
        long first = read.lastTick() + 1_000;
        assertThat(fire(queue, read, first, "orders@" + read.last())).isEqualTo(ScheduleFired.FIRED);
        assertThat(failNext(queue)).containsExactly(Settled.DEAD_LETTERED);
        return first;
    }

    @Test
    void aScheduleIsDeclaredOnceReplacedByAnotherExpressionAndRemoved() {
        ReliableQueue queue = queueOfMode(settings(60_000, 3, 100));

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

    @Test
    void aTickFiresOnceWhoeverFiresItAndTheNextWaitsForItsMessageToSettle() {
        ReliableQueue queue = queueOfMode(settings(60_000, 3, 100));
        ScheduleState read = declaredEverySecond(queue);
        long tick = read.lastTick() + 1_000;
        String previous = "orders@" + read.last();

        assertThat(fire(queue, read, tick, previous)).isEqualTo(ScheduleFired.FIRED);
        assertThat(fire(queue, read, tick, previous))
                .as("another instance with the same reading").isEqualTo(ScheduleFired.STALE);

        ScheduleState after = schedules(queue).scheduleState();
        assertThat(after.lastTick()).isEqualTo(tick);
        List<Delivery> claimed = queue.claim(10);
        assertThat(claimed).extracting(Delivery::messageId).containsExactly("orders@" + tick);
        assertThat(claimed.get(0).headers()).containsEntry("CamelReliableRedisScheduledFor", tick);
        assertThat(fire(queue, after, tick + 1_000, "orders@" + tick))
                .as("the last tick runs").isEqualTo(ScheduleFired.HELD);

        queue.ack(List.of(claimed.get(0).lease()));
        assertThat(fire(queue, after, tick + 1_000, "orders@" + tick)).isEqualTo(ScheduleFired.FIRED);
        assertThat(schedules(queue).fireTicks(schedules(queue).scheduleState(), tick + 5_000, "orders@" + (tick + 1_000), List.of()))
                .as("moving past missed ticks while the last one waits").isEqualTo(ScheduleFired.HELD);
        assertThat(counts(queue).ready()).isEqualTo(1);
    }

    @Test
    void aTickRedrivenAfterANewerOneFiredHoldsTheScheduleUntilItSettles() {
        ReliableQueue queue = queueOfMode(settings(60_000, 0, 100));
        long first = firstTickDeadLettered(queue);
        long second = first + 1_000;
        long third = second + 1_000;
        assertThat(fireNow(queue, second, "orders@" + first)).as("a dead tick holds nothing")
                .isEqualTo(ScheduleFired.FIRED);
        queue.ack(List.of(queue.claim(10).get(0).lease()));

        assertThat(queue.redrive(10)).isEqualTo(1);

        assertThat(fireNow(queue, third, "orders@" + second)).as("the redriven tick is queued")
                .isEqualTo(ScheduleFired.HELD);
        Delivery redriven = queue.claim(10).get(0);
        assertThat(redriven.messageId()).isEqualTo("orders@" + first);
        assertThat(fireNow(queue, third, "orders@" + second)).as("the redriven tick runs")
                .isEqualTo(ScheduleFired.HELD);
        queue.ack(List.of(redriven.lease()));
        assertThat(fireNow(queue, third, "orders@" + second)).isEqualTo(ScheduleFired.FIRED);
        assertThat(queue.claim(10)).extracting(Delivery::messageId).containsExactly("orders@" + third);
    }

    @Test
    void aDeadTickIsLeftDeadWhileANewerTickOfItsScheduleRuns() {
        ReliableQueue queue = queueOfMode(settings(60_000, 0, 100));
        long first = firstTickDeadLettered(queue);
        long second = first + 1_000;
        assertThat(fireNow(queue, second, "orders@" + first)).isEqualTo(ScheduleFired.FIRED);
        Delivery running = queue.claim(10).get(0);
        assertThat(running.messageId()).isEqualTo("orders@" + second);

        assertThat(queue.redrive(10)).as("the newer tick runs").isZero();
        assertThat(queue.redrive("orders@" + first)).isFalse();
        assertThat(counts(queue).dead()).isEqualTo(1);

        queue.ack(List.of(running.lease()));
        assertThat(queue.redrive(10)).isEqualTo(1);
        assertThat(queue.claim(10)).extracting(Delivery::messageId).containsExactly("orders@" + first);
    }

    @Test
    void aRedriveMovesOneDeadTickOfASchedule() {
        ReliableQueue queue = queueOfMode(settings(60_000, 0, 100));
        long first = firstTickDeadLettered(queue);
        fireNow(queue, first + 1_000, "orders@" + first);
        failNext(queue);
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
    @Test
    void aTickOfAnEndpointWhoseCountTheMarkerNoLongerSaysIsRefused() {
        ReliableQueue queue = Queues.open(gateway, "rr", "orders", 1, streamMode() ? group("g", "c1") : null,
                settings(60_000, 3, 100));
        ScheduleState read = declaredEverySecond(queue);
        long tick = read.lastTick() + 1_000;
        // as a reshard to 2 records it
        gateway.commands().hset(bytes("rr:{orders}:meta"), bytes("shards"), bytes("2"));

        assertThatThrownBy(() -> fire(queue, read, tick, "orders@" + read.last()))
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
