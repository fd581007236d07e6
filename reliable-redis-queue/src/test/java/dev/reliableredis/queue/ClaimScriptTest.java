package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.testsupport.CommandStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClaimScriptTest extends QueueTestBase {

    @Test
    void claimsABatchInOrderUnderALeaseOfTheVisibilityTimeout() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        for (int i = 0; i < 5; i++) {
            q.enqueue(message("m" + i, "body" + i));
        }
        long before = now();

        List<Delivery> claimed = q.claim(3);

        assertThat(claimed).extracting(Delivery::messageId).containsExactly("m0", "m1", "m2");
        assertThat(claimed).extracting(Delivery::deliveryCount).containsOnly(1);
        assertThat(claimed).extracting(d -> new String(d.body())).containsExactly("body0", "body1", "body2");
        assertThat(claimed).extracting(d -> d.lease().token()).as("the call's token").containsOnly(
                claimed.get(0).lease().token());
        for (Delivery d : claimed) {
            assertThat(raw.zscore(key("orders", "inflight"), d.messageId()))
                    .isBetween(before + 30_000.0, now() + 30_000.0);
            assertThat(raw.hget(key("orders", "leases"), d.messageId())).as("a lease of a batch of three").isEqualTo("1|" + d.lease().token() + "|0|b");
        }
        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m3", "m4");
    }

    /** Messages without a time to live: the claim reads their records and leases, and no expiry. */
    @Test
    void aClaimLooksUpExpiriesOnlyWhileSomeMessageHasOne() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        for (int i = 0; i < 5; i++) {
            q.enqueue(message("m" + i, "body" + i));
        }
        raw.configResetstat();

        assertThat(q.claim(5)).hasSize(5);

        assertThat(CommandStats.of(raw, "hmget", "calls")).as("records and leases").isEqualTo(2);
    }

    /** The token is the claim's id: no counter is read or written, and a dead letter's claim draws none either. */
    @Test
    void aClaimDrawsItsTokenFromNoKey() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(List.of(message("m1", "a"), message("m2", "b")));
        raw.configResetstat();

        assertThat(q.claim(2)).hasSize(2);

        assertThat(CommandStats.of(raw, "incrby", "calls")).as("tokens drawn").isZero();
        assertThat(CommandStats.of(raw, "get", "calls")).as("the claim record only").isEqualTo(1);
        assertThat(raw.exists(key("orders", "seq"))).isZero();
    }

    @Test
    void anEmptyQueueClaimsNothing() {
        assertThat(queue("orders", settings(30_000, 3, 1000)).claim(10)).isEmpty();
    }

    @Test
    void everyDeliveryGetsAFreshTokenAndCountsUp() {
        ListQueue q = queue("orders", settings(30_000, 3, 0));
        q.enqueue(message("m1", "a"));
        Delivery first = q.claim(1).get(0);
        q.nack(List.of(new Failure(first.lease(), "boom")));
        q.reap();

        Delivery second = q.claim(1).get(0);

        assertThat(second.deliveryCount()).isEqualTo(2);
        assertThat(second.lease().token()).isNotEqualTo(first.lease().token());
        assertThat(second.enqueuedAt()).isEqualTo(first.enqueuedAt());
    }

    /**
     * A call's messages share its token, drawn once: a call claims a message once, so that id and token name one
     * delivery. A message released and claimed again, in a call that claims another one too, has a token none of its
     * deliveries had, and its old lease is refused.
     */
    @Test
    void aTokenNamesOneDeliveryOfOneMessage() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(List.of(message("m1", "a"), message("m2", "b")));
        Delivery first = q.claim(1).get(0);
        assertThat(q.release(List.of(first.lease()))).isEqualTo(1);

        List<Delivery> again = q.claim(2);

        assertThat(again).extracting(Delivery::messageId).containsExactly("m1", "m2");
        assertThat(again.get(0).lease().token()).isEqualTo(again.get(1).lease().token())
                .isNotEqualTo(first.lease().token());
        assertThat(q.ack(List.of(first.lease()))).containsExactly(Settled.REFUSED);
        assertThat(q.ack(again.stream().map(Delivery::lease).toList())).containsOnly(Settled.ACKED);
    }

    @Test
    void anIdWithoutAStoredMessageIsDroppedFromTheReadyList() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.rpush(key("orders", "ready"), "ghost");
        q.enqueue(message("real", "a"));

        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("real");
        assertThat(raw.llen(key("orders", "ready"))).isZero();
        assertThat(raw.zcard(key("orders", "inflight"))).isEqualTo(1);
    }

    @Test
    void anIdWithAnUnreadableDeliveryStateIsDroppedAndTheRestOfTheBatchClaimed() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.rpush(key("orders", "ready"), "bad-state");
        raw.hset(key("orders", "messages"), "bad-state", "1|0|x");
        raw.hset(key("orders", "leases"), "bad-state", "not a state");
        q.enqueue(message("real", "a"));

        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("real");
        assertThat(raw.zrange(key("orders", "inflight"), 0, -1)).containsExactly("real");
        assertThat(raw.zcard(key("orders", "dead"))).isZero();
    }

    @Test
    void aMalformedRecordIsDeadLetteredSayingWhatIsWrongAndTheRestOfTheBatchClaimed() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        Map<String, String> malformed = new LinkedHashMap<>();
        malformed.put("not-a-length", "1700000000000|x|{}body");
        // as an int, a negative length: the batch's parse failed on it
        malformed.put("int-overflow", "1700000000000|2147483648|body");
        malformed.put("too-long", "1700000000000|99|{}");
        malformed.put("not-a-time", "soon|0|body");
        malformed.put("huge-time", "1".repeat(25) + "|0|body");
        malformed.put("no-shape", "not a record");
        q.enqueue(message("first", "a"));
        malformed.forEach((id, record) -> {
            raw.hset(key("orders", "messages"), id, record);
            raw.rpush(key("orders", "ready"), id);
        });
        q.enqueue(message("last", "b"));
        long before = now();

        List<Delivery> claimed = q.claim(10);

        assertThat(claimed).extracting(Delivery::messageId).containsExactly("first", "last");
        assertThat(claimed).extracting(d -> new String(d.body())).containsExactly("a", "b");
        assertThat(raw.llen(key("orders", "ready"))).isZero();
        assertThat(raw.zrange(key("orders", "dead"), 0, -1)).containsExactlyInAnyOrderElementsOf(malformed.keySet());
        assertThat(raw.zscore(key("orders", "dead"), "no-shape")).isBetween((double) before, (double) now());
        assertThat(raw.hgetall(key("orders", "failure"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                "not-a-length", "malformed record: headers length 'x' is not a number",
                "int-overflow", "malformed record: headers length '2147483648' is more than the 4 bytes after it",
                "too-long", "malformed record: headers length '99' is more than the 2 bytes after it",
                "not-a-time", "malformed record: enqueuedAt 'soon' is not a number",
                "huge-time", "malformed record: enqueuedAt '11111111111111111111...' is out of range",
                "no-shape", "malformed record: it does not start with enqueuedAt|headersLength|"));
        assertThat(raw.hgetall(key("orders", "messages"))).containsAllEntriesOf(malformed);
        assertThat(q.stats().dead()).isEqualTo(6);
    }

    @Test
    void aDeadLetterConsumerGetsAMalformedRecordWholeWithWhatIsWrong() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.hset(key("orders", "messages"), "bad", "1700000000000|x|body");
        raw.rpush(key("orders", "ready"), "bad");
        assertThat(q.claim(10)).isEmpty();

        Delivery letter = q.deadLetters().claim(10).get(0);

        assertThat(letter.messageId()).isEqualTo("bad");
        assertThat(new String(letter.body())).isEqualTo("1700000000000|x|body");
        assertThat(letter.headers()).isEmpty();
        assertThat(letter.enqueuedAt()).isEqualTo(-1);
        assertThat(letter.failure()).isEqualTo("malformed record: headers length 'x' is not a number");
        q.deadLetters().ack(List.of(letter.lease()));
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }
}
