package dev.reliableredis.queue;

import java.util.List;

import dev.reliableredis.queue.list.ListQueue;
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
        assertThat(claimed).extracting(d -> d.lease().token()).doesNotHaveDuplicates();
        for (Delivery d : claimed) {
            assertThat(raw.zscore(key("orders", "inflight"), d.messageId()))
                    .isBetween(before + 30_000.0, now() + 30_000.0);
            assertThat(raw.hget(key("orders", "leases"), d.messageId())).as("a lease of a batch of three").isEqualTo("1|" + d.lease().token() + "|0|b");
        }
        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m3", "m4");
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
    void anIdWithAnUnreadableRecordOrDeliveryStateIsDroppedAndTheRestOfTheBatchClaimed() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.rpush(key("orders", "ready"), "garbage", "bad-state");
        raw.hset(key("orders", "messages"), "garbage", "not a record");
        raw.hset(key("orders", "messages"), "bad-state", "1|0|x");
        raw.hset(key("orders", "leases"), "bad-state", "not a state");
        q.enqueue(message("real", "a"));

        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("real");
        assertThat(raw.zrange(key("orders", "inflight"), 0, -1)).containsExactly("real");
    }
}
