package dev.reliableredis.queue;

import java.util.List;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** redrive, purge, stats and the dead-letter view (claim-dead and its settlements). */
class AdminScriptsTest extends QueueTestBase {

    private ListQueue queueWithDeadLetters(int count) {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        for (int i = 0; i < count; i++) {
            q.enqueue(message("d" + i, "x" + i));
        }
        for (Delivery d : q.claim(count)) {
            q.nack(List.of(new Failure(d.lease(), "boom " + d.messageId())));
        }
        return q;
    }

    @Test
    void redriveMovesDeadLettersBackWithAFreshDeliveryCountAndTheirEnqueueTime() {
        ListQueue q = queueWithDeadLetters(3);
        String enqueuedAt = raw.hget(key("orders", "messages"), "d0").split("\\|")[0];

        assertThat(q.redrive(2)).isEqualTo(2);
        assertThat(counts(q)).isEqualTo(new QueueStats(2, 0, 0, 1));

        Delivery again = q.claim(1).get(0);
        assertThat(again.messageId()).isEqualTo("d0");
        assertThat(again.deliveryCount()).isEqualTo(1);
        assertThat(again.enqueuedAt()).isEqualTo(Long.parseLong(enqueuedAt));
        assertThat(raw.hexists(key("orders", "failure"), "d0")).isFalse();
        assertThat(q.redrive(Long.MAX_VALUE)).isEqualTo(1);
    }

    @Test
    void purgeRemovesReadyDelayedAndDeadButNotInFlight() {
        ListQueue q = queueWithDeadLetters(2);
        q.enqueue(message("ready", "r"));
        q.enqueue(new NewMessage("delayed", "d".getBytes(), null, 60_000));
        q.enqueue(message("inflight", "i"));
        raw.lrem(key("orders", "ready"), 0, "inflight");
        raw.lpush(key("orders", "ready"), "inflight");
        Delivery held = q.claim(1).get(0);

        assertThat(q.purge()).isEqualTo(4);

        assertThat(counts(q)).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(raw.hkeys(key("orders", "messages"))).containsExactly("inflight");
        assertThat(raw.hkeys(key("orders", "leases"))).containsExactly("inflight");
        assertThat(raw.hlen(key("orders", "failure"))).isZero();
        assertThat(q.ack(List.of(held.lease()))).containsExactly(Settled.ACKED);
    }

    @Test
    void purgeWorksThroughMoreThanOneBatch() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        for (int i = 0; i < 2500; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        assertThat(q.purge()).isEqualTo(2500);
        assertThat(raw.hlen(key("orders", "messages"))).isZero();
    }

    @Test
    void statsCountsEachState() {
        ListQueue q = queueWithDeadLetters(1);
        q.enqueue(message("r1", "a"));
        q.enqueue(message("r2", "a"));
        q.enqueue(new NewMessage("later", "a".getBytes(), null, 60_000));
        q.claim(1);

        assertThat(counts(q)).isEqualTo(new QueueStats(1, 1, 1, 1));
        assertThat(q.stats().toMap()).containsKeys("ready", "inflight", "delayed", "dead");
    }

    @Test
    void browseSkipsAnIdWithoutARecord() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        raw.rpush(key("orders", "ready"), "ghost");
        q.enqueue(message("m2", "b"));

        assertThat(q.browse(QueueSection.READY, 10)).extracting(BrowsedMessage::messageId).containsExactly("m1", "m2");
    }

    @Test
    void statsAgeTheLongestHeldLeaseOfBothInFlightSets() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        q.claim(1);
        long before = now();
        // a dead letter whose lease was taken 5 s ago
        raw.zadd(key("orders", "dead-inflight"), before + 30_000 - 5_000, "d1");

        assertThat(q.stats().oldestInflightAge()).isBetween(5_000L, now() - before + 5_000);
    }

    @Test
    void deadLettersAreClaimedWithTheirFailureAndAnAckRemovesThem() {
        ListQueue q = queueWithDeadLetters(1);
        ListQueue dead = q.deadLetters();

        Delivery d = dead.claim(10).get(0);

        assertThat(d.failure()).isEqualTo("boom d0");
        assertThat(d.deliveryCount()).isEqualTo(1);
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(dead.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(raw.hlen(key("orders", "messages"))).isZero();
        assertThat(raw.hlen(key("orders", "leases"))).isZero();
    }

    @Test
    void aFailedDeadLetterGoesBackToTheDeadLettersAndWaitsRetryDelay() {
        ListQueue q = queueWithDeadLetters(1);
        ListQueue dead = q.deadLetters();
        Delivery d = dead.claim(1).get(0);
        long before = now();

        assertThat(dead.nack(List.of(new Failure(d.lease(), "still broken")))).containsExactly(Settled.RETRY_SCHEDULED);

        assertThat(counts(q)).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(raw.zscore(key("orders", "dead"), "d0")).isBetween(before + 1000.0, now() + 1000.0);
        assertThat(dead.claim(1)).isEmpty();
        assertThat(raw.hget(key("orders", "failure"), "d0")).isEqualTo("still broken");
    }

    @Test
    void anUnstartedDeadLetterIsReleasedToTheDeadLetters() {
        ListQueue dead = queueWithDeadLetters(1).deadLetters();
        Delivery d = dead.claim(1).get(0);

        assertThat(dead.release(List.of(d.lease()))).isEqualTo(1);
        assertThat(dead.claim(1)).extracting(Delivery::messageId).containsExactly("d0");
    }

    @Test
    void redriveStopsAtTheDeadLettersThereWereWhenItBegan() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        for (int i = 0; i < 2_500; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        for (List<Delivery> batch = q.claim(1_000); !batch.isEmpty(); batch = q.claim(1_000)) {
            q.nack(batch.stream().map(d -> new Failure(d.lease(), "boom")).toList());
        }

        long moved = whileDeadLetteringAgain("orders", false, () -> q.redrive(Long.MAX_VALUE));

        assertThat(moved).isEqualTo(2_500);
    }
}
