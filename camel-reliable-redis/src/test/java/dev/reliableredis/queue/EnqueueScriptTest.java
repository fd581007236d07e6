package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class EnqueueScriptTest extends QueueTestBase {

    @Test
    void storesBodyHeadersAndMetaByIdAndMakesTheIdReady() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        long before = now();

        assertThat(q.enqueue(new NewMessage("m1", "hello".getBytes(), Map.of("n", 7L), 0))).isTrue();

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m1");
        assertThat(raw.hget(key("orders", "body"), "m1")).isEqualTo("hello");
        assertThat(raw.hget(key("orders", "headers"), "m1")).isEqualTo("{\"n\":[\"Long\",\"7\"]}");
        String[] meta = raw.hget(key("orders", "meta"), "m1").split("\\|", -1);
        assertThat(Long.parseLong(meta[0])).isBetween(before, now());
        assertThat(meta[1]).isEqualTo("0");
        assertThat(meta[2]).isEmpty();
    }

    @Test
    void isANoOpWhileTheIdIsQueuedDelayedInFlightOrDead() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        assertThat(q.enqueue(message("queued", "a"))).isTrue();
        assertThat(q.enqueue(message("queued", "b"))).isFalse();
        assertThat(raw.hget(key("orders", "body"), "queued")).isEqualTo("a");

        assertThat(q.enqueue(new NewMessage("delayed", "a".getBytes(), null, 60_000))).isTrue();
        assertThat(q.enqueue(message("delayed", "b"))).isFalse();

        q.purge();
        q.enqueue(message("inflight", "a"));
        Delivery d = q.claim(1).get(0);
        assertThat(q.enqueue(message("inflight", "b"))).isFalse();

        q.nack(List.of(new Failure(d.lease(), "boom")));
        assertThat(q.stats().dead()).isEqualTo(1);
        assertThat(q.enqueue(message("inflight", "c"))).isFalse();
        assertThat(q.stats().ready()).isZero();
    }

    @Test
    void isANoOpForAnIdAckedWithinTheWindowAndStoresItAfterwards() {
        QueueSettings shortWindow = new QueueSettings(Duration.ofSeconds(30), 3, Duration.ofSeconds(1), 2.0,
                Duration.ofSeconds(10), 100, Duration.ofMillis(300));
        ListQueue q = queue("orders", shortWindow);
        q.enqueue(message("m1", "a"));
        q.ack(List.of(q.claim(1).get(0).lease()));
        long acked = now();

        assertThat(q.enqueue(message("m1", "again"))).isFalse();
        assertThat(raw.zscore(key("orders", "acked"), "m1")).isCloseTo(acked + 300, within(50.0));

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> now() > acked + 350);
        assertThat(q.enqueue(message("m1", "again"))).isTrue();
        assertThat(raw.zscore(key("orders", "acked"), "m1")).isNull();
    }

    @Test
    void withAZeroWindowAnAckedIdIsForgottenAtOnce() {
        QueueSettings noWindow = new QueueSettings(Duration.ofSeconds(30), 3, Duration.ofSeconds(1), 2.0,
                Duration.ofSeconds(10), 100, Duration.ZERO);
        ListQueue q = queue("orders", noWindow);
        q.enqueue(message("m1", "a"));
        q.ack(List.of(q.claim(1).get(0).lease()));

        assertThat(raw.exists(key("orders", "acked"))).isZero();
        assertThat(q.enqueue(message("m1", "again"))).isTrue();
    }

    @Test
    void aDelayedMessageWaitsInTheDelayedSetUntilItsServerTime() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        long before = now();
        q.enqueue(new NewMessage("later", "x".getBytes(), null, 5_000));

        assertThat(raw.llen(key("orders", "ready"))).isZero();
        assertThat(raw.zscore(key("orders", "delayed"), "later")).isBetween(before + 5_000.0, now() + 5_000.0);
        assertThat(q.claim(10)).isEmpty();
    }
}
