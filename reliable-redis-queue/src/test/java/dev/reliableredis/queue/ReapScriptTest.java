package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ReapScriptTest extends QueueTestBase {

    /** Enqueues and claims m1, and puts its lease's deadline in the past, as if the lease had run out. */
    private void claimWithAnExpiredLease(ListQueue q) {
        q.enqueue(message("m1", "a"));
        q.claim(1);
        raw.zadd(key("orders", "inflight"), now() - 1, "m1");
    }

    @Test
    void returnsExpiredLeasesToReadyAndCountsTheDelivery() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        claimWithAnExpiredLease(q);

        assertThat(q.reap()).isEqualTo(new ReapResult(1, 0, 0, 0, 0, false));

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m1");
        assertThat(raw.hget(key("orders", "leases"), "m1")).isEqualTo("1|");
        assertThat(q.claim(1).get(0).deliveryCount()).isEqualTo(2);
    }

    @Test
    void deadLettersAnExpiredLeaseWhoseDeliveriesAreUsedUp() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        claimWithAnExpiredLease(q);

        assertThat(q.reap().expiredDeadLettered()).isEqualTo(1);

        assertThat(raw.zrange(key("orders", "dead"), 0, -1)).containsExactly("m1");
        assertThat(raw.hget(key("orders", "failure"), "m1")).isEqualTo("lease expired");
    }

    @Test
    void releasesDueDelayedMessagesAndLeavesTheOthers() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(new NewMessage("soon", "a".getBytes(), null, 1));
        q.enqueue(new NewMessage("later", "b".getBytes(), null, 60_000));
        long due = raw.zscore(key("orders", "delayed"), "soon").longValue();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> now() > due);

        assertThat(q.reap().delayedReleased()).isEqualTo(1);

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("soon");
        assertThat(raw.zrange(key("orders", "delayed"), 0, -1)).containsExactly("later");
    }

    @Test
    void movesAtMostTheBatchSizePerCall() {
        QueueSettings small = QueueSettings.builder().maxRetryDelay(Duration.ofSeconds(10)).reaperBatchSize(3)
                .idempotencyWindow(Duration.ofMinutes(1)).build();
        ListQueue q = queue("orders", small);
        for (int i = 0; i < 7; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        q.claim(7);
        for (int i = 0; i < 7; i++) {
            raw.zadd(key("orders", "inflight"), now() - 1, "m" + i);
        }

        assertThat(q.reap().expiredReturned()).isEqualTo(3);
        assertThat(q.reap().expiredReturned()).isEqualTo(3);
        assertThat(q.reap().expiredReturned()).isEqualTo(1);
        assertThat(q.stats().ready()).isEqualTo(7);
    }

    @Test
    void withTheLargestMaxRetriesAnExpiredLeaseIsStillReturnedToReady() {
        ListQueue q = queue("orders", QueueSettings.builder().maxRetries(QueueSettings.MAX_RETRIES)
                .maxRetryDelay(Duration.ofSeconds(10)).idempotencyWindow(Duration.ofMinutes(1)).build());
        claimWithAnExpiredLease(q);

        assertThat(q.reap()).isEqualTo(new ReapResult(1, 0, 0, 0, 0, false));
    }

    @Test
    void forgetsMoreAckedIdsThanLuaCanUnpackAtOnceInCallsOfTheLargestBatch() {
        ListQueue q = queue("orders", QueueSettings.builder().maxRetryDelay(Duration.ofSeconds(10))
                .reaperBatchSize(ReliableQueue.MAX_BATCH).idempotencyWindow(Duration.ofMinutes(1)).build());
        io.lettuce.core.ScoredValue<String>[] old = new io.lettuce.core.ScoredValue[9000];
        for (int i = 0; i < old.length; i++) {
            old[i] = io.lettuce.core.ScoredValue.just(1, "old" + i);
        }
        raw.zadd(key("orders", "acked"), (Object[]) old);

        long forgotten = 0;
        ReapResult result;
        do {
            result = q.reap();
            forgotten += result.ackedIdsForgotten();
        } while (result.more());
        assertThat(forgotten).isEqualTo(9000);
        assertThat(raw.exists(key("orders", "acked"))).isZero();
    }

    @Test
    void dropsExpiredIdsWhoseDeliveryStateIsUnreadable() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.zadd(key("orders", "inflight"), 1, "garbage");
        raw.hset(key("orders", "leases"), "garbage", "not a state");
        q.enqueue(message("m1", "a"));

        assertThat(q.reap().expiredReturned()).isZero();
        assertThat(raw.zcard(key("orders", "inflight"))).isZero();
        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("m1");
    }

    @Test
    void forgetsAckedIdsWhoseWindowHasPassed() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.zadd(key("orders", "acked"), now() - 1, "old");
        raw.zadd(key("orders", "acked"), now() + 60_000, "recent");

        assertThat(q.reap().ackedIdsForgotten()).isEqualTo(1);
        assertThat(raw.zrange(key("orders", "acked"), 0, -1)).containsExactly("recent");
    }

    @Test
    void returnsExpiredDeadLetterLeasesToTheDeadLetters() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        q.enqueue(message("m1", "a"));
        q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "boom")));
        q.deadLetters().claim(1);
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 1, 0, 0));
        raw.zadd(key("orders", "dead-inflight"), now() - 1, "m1");

        assertThat(q.reap().deadLettersReturned()).isEqualTo(1);
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    void aCallThatTakesAFullBatchSaysThereMayBeMore() {
        ListQueue q = queue("orders", QueueSettings.defaults());
        for (int i = 0; i < 150; i++) {
            q.enqueue(new NewMessage("m" + i, "x".getBytes(), null, 1));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.zcount(key("orders", "delayed"),
                io.lettuce.core.Range.create(0, now())) == 150);

        ReapResult first = q.reap();
        ReapResult second = q.reap();

        assertThat(first.delayedReleased()).isEqualTo(100);
        assertThat(first.more()).isTrue();
        assertThat(second.delayedReleased()).isEqualTo(50);
        assertThat(second.more()).isFalse();
    }

    @Test
    void anIdleReapWritesNothing() {
        assertAnIdleReapWritesNothing(queue("orders", settings(30_000, 3, 1000)));
    }
}
