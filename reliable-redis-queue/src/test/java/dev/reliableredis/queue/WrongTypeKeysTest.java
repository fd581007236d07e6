package dev.reliableredis.queue;

import java.util.List;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A key of the queue that another program gave the wrong type stops a script before its first write: Redis does not
 * undo a failing script's writes, so a script failing halfway would leave a message out of one key and in none.
 */
class WrongTypeKeysTest extends QueueTestBase {

    @Test
    void aClaimStopsBeforeItTakesMessagesOffTheReadyList() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        for (int i = 1; i <= 3; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        raw.del(key("orders", "wake"));
        raw.set(key("orders", "wake"), "not a list");

        assertThatThrownBy(() -> q.claim(10)).isInstanceOf(QueueException.class).hasMessageContaining("WRONGTYPE");

        assertThat(raw.llen(key("orders", "ready"))).isEqualTo(3);
        raw.del(key("orders", "wake"));
        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("m1", "m2", "m3");
    }

    @Test
    void aNackStopsBeforeItTakesTheMessageOutOfFlight() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        q.enqueue(message("m1", "x"));
        Delivery d = q.claim(1).get(0);
        raw.set(key("orders", "dead"), "not a sorted set");

        assertThatThrownBy(() -> q.nack(List.of(new Failure(d.lease(), "boom"))))
                .isInstanceOf(QueueException.class).hasMessageContaining("WRONGTYPE");

        assertThat(raw.zscore(key("orders", "inflight"), "m1")).isNotNull();
        raw.del(key("orders", "dead"));
        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);
    }

    /**
     * The ack's first write is to the messages hash; the other keys it writes are read first, the failure and extras
     * hashes where the lease says the message has a field there (a time to live, a failed delivery).
     */
    @ParameterizedTest
    @ValueSource(strings = {"messages", "failure", "extras", "acked", "wake"})
    void anAckStopsBeforeItTakesTheMessageOutOfFlight(String broken) {
        ListQueue q = queue("orders", settings(30_000, 3, 0));
        q.enqueue(new NewMessage("m1", "x".getBytes(), null, 0, null, 3_600_000));
        q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "boom")));
        q.reap();
        Delivery d = q.claim(1).get(0);
        String record = raw.hget(key("orders", "messages"), "m1");
        raw.del(key("orders", broken));
        raw.set(key("orders", broken), "not what it should be");

        assertThatThrownBy(() -> q.ack(List.of(d.lease()))).isInstanceOf(QueueException.class)
                .hasMessageContaining("WRONGTYPE");

        assertThat(raw.zscore(key("orders", "inflight"), "m1")).isNotNull();
        assertThat(raw.hget(key("orders", "leases"), "m1")).isEqualTo("2|" + d.lease().token() + "|0|xf");
        raw.del(key("orders", broken));
        if (broken.equals("messages")) {
            raw.hset(key("orders", "messages"), "m1", record);
        }
        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);
    }

    /** A stream ack reads every key it writes before its XACK, the first write. */
    @ParameterizedTest
    @ValueSource(strings = {"ids", "acked", "group:g:retry", "group:g:deliveries"})
    void aStreamAckStopsBeforeItAcksTheEntry(String broken) {
        StreamQueue q = streamQueue("orders", settings(30_000, 3, 1000), group("g", "c1"));
        q.enqueue(message("m1", "x"));
        Delivery d = q.claim(1).get(0);
        raw.del(key("orders", broken));
        raw.set(key("orders", broken), "not what it should be");

        assertThatThrownBy(() -> q.ack(List.of(d.lease()))).isInstanceOf(QueueException.class)
                .hasMessageContaining("WRONGTYPE");

        assertThat(raw.xpending(key("orders", "stream"), "g").getConsumerMessageCount()).containsOnlyKeys("c1");
        raw.del(key("orders", broken));
        if (broken.equals("ids")) {
            raw.hset(key("orders", "ids"), "m1", d.lease().ref());
        }
        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);
    }

    @Test
    void aStreamNackStopsBeforeItParksTheEntry() {
        StreamQueue q = streamQueue("orders", settings(30_000, 0, 1000), group("g", "c1"));
        q.enqueue(message("m1", "x"));
        Delivery d = q.claim(1).get(0);
        raw.del(key("orders", "ids"));
        raw.set(key("orders", "ids"), "not a hash");

        assertThatThrownBy(() -> q.nack(List.of(new Failure(d.lease(), "boom"))))
                .isInstanceOf(QueueException.class).hasMessageContaining("WRONGTYPE");

        assertThat(raw.xpending(key("orders", "stream"), "g").getConsumerMessageCount()).containsOnlyKeys("c1");
        raw.del(key("orders", "ids"));
        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);
    }

    @Test
    void aStreamEnqueueStopsBeforeItAddsTheFirstMessageOfTheBatch() {
        StreamQueue q = streamQueue("orders", settings(30_000, 3, 1000), group("g", "c1"));
        raw.set(key("orders", "delayed-msg"), "not a hash");
        List<NewMessage> batch = List.of(message("m1", "now"), new NewMessage("m2", "later".getBytes(), null, 60_000));

        assertThatThrownBy(() -> q.enqueue(batch)).isInstanceOf(QueueException.class).hasMessageContaining("WRONGTYPE");

        assertThat(raw.exists(key("orders", "stream"), key("orders", "ids"))).isZero();
        raw.del(key("orders", "delayed-msg"));
        assertThat(q.enqueue(batch)).containsExactly(true, true);
    }

    @Test
    void aStreamNackOfAnEntryTrimmedAwayIsNoRetryAndLeavesNoNegativeCount() {
        StreamQueue q = streamQueue("orders", settings(30_000, 3, 60_000), group("g", "c1"));
        q.enqueue(message("m1", "x"));
        Delivery d = q.claim(1).get(0);
        raw.xtrim(key("orders", "stream"), 0);

        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.REFUSED);

        assertThat(q.stats()).extracting(QueueStats::inflight, QueueStats::delayed).containsExactly(0L, 0L);
    }

    @Test
    void streamStatsCountTheLagOfAGroupThatStartedAfterTheStreamsHistory() {
        for (int i = 0; i < 20; i++) {
            raw.xadd(key("orders", "stream"), java.util.Map.of("old", String.valueOf(i)));
        }
        StreamQueue q = streamQueue("orders", settings(30_000, 3, 1000),
                new StreamOptions(null, null, "g", "$", "c1", 0, true));
        assertThat(q.claim(1)).isEmpty();
        for (int i = 1; i <= 3; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        // a deletion after the group's position: Redis no longer knows the lag
        raw.xdel(key("orders", "stream"), raw.hget(key("orders", "ids"), "m2"));

        assertThat(q.stats().ready()).isEqualTo(2);
    }
}
