package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.testsupport.CommandStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** ack, nack, extend and release: each checks every delivery's lease token on its own. */
class SettleScriptsTest extends QueueTestBase {

    @Test
    void ackRemovesTheMessageAndRemembersItsId() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(new NewMessage("m1", "a".getBytes(), java.util.Map.of("h", "v"), 0));
        Delivery d = q.claim(1).get(0);

        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);

        assertThat(raw.hexists(key("orders", "messages"), "m1")).isFalse();
        assertThat(raw.hexists(key("orders", "leases"), "m1")).isFalse();
        assertThat(raw.zcard(key("orders", "inflight"))).isZero();
        assertThat(raw.zscore(key("orders", "acked"), "m1")).isNotNull();
    }

    /**
     * Messages without a failure, time to live, priority or group: their ack deletes their record and lease, and
     * neither reads nor deletes the extras and failure hashes, though another message has a field there: the lease's
     * flags say what each message has. The message with a time to live, acked next, takes its field with it.
     */
    @Test
    void anAckDeletesOnlyWhatItsMessagesHave() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(IntStream.range(0, 10).mapToObj(i -> message("m" + i, "x")).toList());
        q.enqueue(new NewMessage("living", "y".getBytes(), null, 0, null, 3_600_000));
        List<Delivery> claimed = q.claim(10);
        raw.configResetstat();

        assertThat(q.ack(claimed.stream().map(Delivery::lease).toList())).hasSize(10).containsOnly(Settled.ACKED);

        assertThat(CommandStats.of(raw, "hdel", "calls")).as("messages and leases").isEqualTo(2);
        assertThat(CommandStats.of(raw, "hmget", "calls")).as("the leases").isEqualTo(1);
        assertThat(CommandStats.of(raw, "hlen", "calls") + CommandStats.of(raw, "exists", "calls")).isZero();
        assertThat(CommandStats.of(raw, "zmscore", "calls")).as("no lease deadline: a token is current only while "
                + "leased").isZero();
        assertThat(raw.exists(key("orders", "messages"), key("orders", "leases"), key("orders", "inflight"),
                key("orders", "extras"))).as("the living message's record and extras").isEqualTo(2);

        raw.configResetstat();
        assertThat(q.ack(List.of(q.claim(1).get(0).lease()))).containsExactly(Settled.ACKED);

        assertThat(CommandStats.of(raw, "hdel", "calls")).as("messages, leases and extras").isEqualTo(3);
        assertThat(raw.exists(key("orders", "extras"))).isZero();
    }

    /** A message that failed once: its ack deletes its failure too, while the other messages' stay. */
    @Test
    void anAckAfterARetryForgetsTheFailure() {
        ListQueue q = queue("orders", settings(30_000, 3, 0));
        q.enqueue(List.of(message("m1", "a"), message("m2", "b")));
        List<Delivery> first = q.claim(2);
        assertThat(q.nack(first.stream().map(d -> new Failure(d.lease(), "boom " + d.messageId())).toList()))
                .containsOnly(Settled.RETRY_SCHEDULED);
        q.reap();
        Delivery again = q.claim(1).get(0);

        assertThat(q.ack(List.of(again.lease()))).containsExactly(Settled.ACKED);

        assertThat(raw.hgetall(key("orders", "failure"))).containsOnlyKeys(again.messageId().equals("m1") ? "m2" : "m1");
    }

    /** The figure docs/guide/guarantees.md gives for sizing idempotencyWindow. */
    @Test
    void aRememberedIdCostsAbout144BytesOfRedis() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        int ids = 5_000;
        for (int i = 0; i < ids; i++) {
            q.enqueue(message(java.util.UUID.randomUUID().toString(), "x"));
        }
        for (int acked = 0; acked < ids; acked += 500) {
            q.ack(q.claim(500).stream().map(Delivery::lease).toList());
        }

        assertThat(raw.zcard(key("orders", "acked"))).isEqualTo(ids);
        Long bytes = raw.eval("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')",
                io.lettuce.core.ScriptOutputType.INTEGER, key("orders", "acked"));
        assertThat(bytes / (double) ids).isBetween(100.0, 180.0);
    }

    @Test
    void ackRefusesAStaleTokenAndSettlesTheRestOfTheBatch() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        q.enqueue(message("m2", "b"));
        List<Delivery> claimed = q.claim(2);
        Lease stale = new Lease("m1", "m1", "not-the-token");

        assertThat(q.ack(List.of(stale, claimed.get(1).lease()))).containsExactly(Settled.REFUSED, Settled.ACKED);
        assertThat(raw.zrange(key("orders", "inflight"), 0, -1)).containsExactly("m1");
        assertThat(q.ack(List.of(claimed.get(1).lease()))).containsExactly(Settled.REFUSED);
    }

    @Test
    void aLateAckAfterTheLeaseExpiredAndWasReclaimedIsRefusedAndTheNewHolderIsUnaffected() {
        ListQueue q = queue("orders", settings(200, 3, 1000));
        q.enqueue(message("m1", "a"));
        Delivery first = q.claim(1).get(0);
        long deadline = raw.zscore(key("orders", "inflight"), "m1").longValue();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> now() > deadline);
        assertThat(q.reap().expiredReturned()).isEqualTo(1);
        Delivery second = q.claim(1).get(0);

        assertThat(q.ack(List.of(first.lease()))).containsExactly(Settled.REFUSED);
        assertThat(q.nack(List.of(new Failure(first.lease(), "late")))).containsExactly(Settled.REFUSED);
        assertThat(q.extend(List.of(first.lease()))).containsExactly(Settled.REFUSED);

        assertThat(second.deliveryCount()).isEqualTo(2);
        assertThat(raw.zscore(key("orders", "inflight"), "m1")).isNotNull();
        assertThat(q.ack(List.of(second.lease()))).containsExactly(Settled.ACKED);
    }

    @Test
    void nackSchedulesRetriesWithCappedExponentialBackoff() {
        QueueSettings s = QueueSettings.builder().maxRetries(10).maxRetryDelay(Duration.ofMillis(5000))
                .idempotencyWindow(Duration.ofMinutes(1)).build();
        ListQueue q = queue("orders", s);
        q.enqueue(message("m1", "a"));
        long[] expected = {1000, 2000, 4000, 5000};
        for (long delay : expected) {
            raw.zrem(key("orders", "delayed"), "m1");
            raw.rpush(key("orders", "ready"), "m1");
            Delivery d = q.claim(1).get(0);
            long before = now();

            assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);

            assertThat(raw.zscore(key("orders", "delayed"), "m1")).isBetween(before + delay + 0.0, now() + delay + 0.0);
            assertThat(raw.hget(key("orders", "failure"), "m1")).isEqualTo("boom");
        }
    }

    @Test
    void aHugeDeliveryCountWithNoRetryDelayRetriesAtOnce() {
        QueueSettings immediate = QueueSettings.builder().maxRetries(QueueSettings.MAX_RETRIES)
                .retryDelay(Duration.ZERO).maxRetryDelay(Duration.ZERO).idempotencyWindow(Duration.ofMinutes(1))
                .build();
        ListQueue q = queue("orders", immediate);
        q.enqueue(message("m1", "a"));
        Delivery d = q.claim(1).get(0);
        raw.hset(key("orders", "leases"), "m1", "5000|" + d.lease().token());
        long before = now();

        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);
        assertThat(raw.zscore(key("orders", "delayed"), "m1")).isBetween(before + 0.0, now() + 0.0);
    }

    @Test
    void nackDeadLettersWhenTheDeliveriesAreUsedUp() {
        ListQueue q = queue("orders", settings(30_000, 1, 0));
        q.enqueue(message("m1", "a"));
        assertThat(q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "first")))).containsExactly(Settled.RETRY_SCHEDULED);
        q.reap();

        assertThat(q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "second"))))
                .containsExactly(Settled.DEAD_LETTERED);

        assertThat(raw.zrange(key("orders", "dead"), 0, -1)).containsExactly("m1");
        assertThat(raw.hget(key("orders", "failure"), "m1")).isEqualTo("second");
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    void extendMovesTheDeadlineForwardOnly() {
        ListQueue q = queue("orders", settings(10_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        Delivery d = q.claim(1).get(0);
        raw.zadd(key("orders", "inflight"), now() + 1_000, "m1");
        long before = now();

        assertThat(q.extend(List.of(d.lease()))).containsExactly(Settled.EXTENDED);
        assertThat(raw.zscore(key("orders", "inflight"), "m1")).isCloseTo(before + 10_000.0, within(200.0));

        raw.zadd(key("orders", "inflight"), now() + 60_000, "m1");
        double further = raw.zscore(key("orders", "inflight"), "m1");
        q.extend(List.of(d.lease()));
        assertThat(raw.zscore(key("orders", "inflight"), "m1")).isEqualTo(further);
        assertThat(q.extend(List.of(new Lease("m1", "m1", "stale")))).containsExactly(Settled.REFUSED);
    }

    @Test
    void releaseReturnsUnstartedDeliveriesToTheHeadWithTheDeliveryUndone() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        q.enqueue(message("m2", "b"));
        Delivery first = q.claim(1).get(0);

        assertThat(q.release(List.of(first.lease(), new Lease("m2", "m2", "stale")))).isEqualTo(1);

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m1", "m2");
        Delivery again = q.claim(1).get(0);
        assertThat(again.messageId()).isEqualTo("m1");
        assertThat(again.deliveryCount()).isEqualTo(1);
    }

    @Test
    void releaseReturnsABatchToTheHeadOfTheReadyListInItsOrder() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        for (int i = 1; i <= 4; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        List<Delivery> claimed = q.claim(3);

        assertThat(q.release(claimed.stream().map(Delivery::lease).toList())).isEqualTo(3);

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m1", "m2", "m3", "m4");
    }
}
