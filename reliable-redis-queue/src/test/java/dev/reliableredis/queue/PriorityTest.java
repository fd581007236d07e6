package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.reliableredis.queue.QueueSettings.PriorityMode;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.list.ListReshard;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * List mode's priority levels: served by weighted round-robin (level p with weight p + 1) or strictly highest first,
 * each level in its order; retries, expired leases, releases and redrives keep their level; a queue that never sees
 * a priority keeps none of its keys.
 */
class PriorityTest extends QueueTestBase {

    private ListQueue queue(boolean strict) {
        return queue("orders", settings(60_000, 0, 1).toBuilder()
                .priorityMode(strict ? PriorityMode.STRICT : PriorityMode.WEIGHTED).build());
    }

    private static NewMessage at(int level, String id) {
        return new NewMessage(id, id.getBytes(), null, 0, null, 0, level);
    }

    /** Sends count messages at each level, one level after the other in turn: l<level>-<n>. */
    private static List<NewMessage> backlog(int count, int... levels) {
        List<NewMessage> messages = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            for (int level : levels) {
                messages.add(at(level, "l" + level + "-" + n));
            }
        }
        return messages;
    }

    private static int levelOf(Delivery delivery) {
        return delivery.headers().get(NewMessage.PRIORITY_HEADER) instanceof Integer level ? level
                : NewMessage.DEFAULT_PRIORITY;
    }

    /** Claims one message at a time, n times: how a share of one takes them. */
    private static List<Delivery> claimOneByOne(ReliableQueue queue, int n) {
        List<Delivery> claimed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            claimed.addAll(queue.claim(THREAD, 1));
        }
        return claimed;
    }

    @Test
    void aBacklogAtLevels0And4And9StartsInTheRatio1To5To10WhetherClaimedOneByOneOrInABatch() {
        ListQueue queue = queue(false);
        queue.enqueue(backlog(40, 0, 4, 9));

        Map<Integer, Long> oneByOne = claimOneByOne(queue, 16).stream()
                .collect(Collectors.groupingBy(PriorityTest::levelOf, Collectors.counting()));
        Map<Integer, Long> batch = queue.claim(THREAD, 16).stream()
                .collect(Collectors.groupingBy(PriorityTest::levelOf, Collectors.counting()));

        assertThat(oneByOne).isEqualTo(Map.of(0, 1L, 4, 5L, 9, 10L));
        assertThat(batch).isEqualTo(Map.of(0, 1L, 4, 5L, 9, 10L));
        assertThat(queue.stats().ready()).isEqualTo(120 - 32);
    }

    @Test
    void aFloodedLevel9StillLetsALevel0MessageThroughWithinOneWeightedCycle() {
        ListQueue queue = queue(false);
        queue.enqueue(backlog(100, 9));
        queue.enqueue(at(0, "low"));

        List<String> first = claimOneByOne(queue, 11).stream().map(Delivery::messageId).toList();

        assertThat(first).as("one cycle of levels 9 and 0: 10 + 1").contains("low");
    }

    @Test
    void eachLevelKeepsItsOrderAndStrictModeTakesTheHighestFirst() {
        ListQueue queue = queue(true);
        queue.enqueue(List.of(at(0, "a0"), message("a4", "default"), at(9, "a9"), at(0, "b0"), at(9, "b9"),
                message("b4", "default"), at(7, "a7")));

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId)
                .containsExactly("a9", "b9", "a7", "a4", "b4", "a0", "b0");
    }

    @Test
    void aRetryAnExpiredLeaseAReleaseAndARedriveKeepTheirLevel() {
        ListQueue queue = queue("orders", settings(200, 1, 1).toBuilder().priorityMode(PriorityMode.STRICT).build());
        queue.enqueue(backlog(3, 0));
        queue.enqueue(at(9, "high"));
        Delivery claimed = queue.claim(THREAD, 1).get(0);
        assertThat(claimed.messageId()).isEqualTo("high");

        // a retry, due at once
        queue.nack(List.of(new Failure(claimed.lease(), "boom")));
        awaitReaped(queue);
        claimed = queue.claim(THREAD, 1).get(0);
        assertThat(claimed.messageId()).as("retried").isEqualTo("high");

        // given back unstarted
        assertThat(queue.release(List.of(claimed.lease()))).isOne();
        claimed = queue.claim(THREAD, 1).get(0);
        assertThat(claimed.messageId()).as("released").isEqualTo("high");

        // its lease expires: its last delivery (maxRetries=1) dead-letters it
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            queue.reap();
            return queue.stats().dead() == 1;
        });
        assertThat(queue.redrive(10)).isOne();
        assertThat(queue.claim(THREAD, 1)).as("redriven").extracting(Delivery::messageId).containsExactly("high");
    }

    private static void awaitReaped(ListQueue queue) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            queue.reap();
            return queue.stats().delayed() == 0;
        });
    }

    @Test
    void anExpiredLeaseGoesBackToItsLevel() {
        ListQueue queue = queue("orders", settings(200, 3, 1).toBuilder().priorityMode(PriorityMode.STRICT).build());
        queue.enqueue(List.of(at(0, "low"), at(8, "high")));
        assertThat(queue.claim(THREAD, 1)).extracting(Delivery::messageId).containsExactly("high");

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.reap().expiredReturned() == 1);

        assertThat(queue.claim(THREAD, 1)).extracting(Delivery::messageId).containsExactly("high");
    }

    @Test
    void statsBrowseAckAndPurgeSeeEveryLevel() {
        ListQueue queue = queue(false);
        queue.enqueue(List.of(at(2, "two"), message("four", "default"), at(9, "nine")));

        assertThat(queue.stats().ready()).isEqualTo(3);
        assertThat(queue.browse(QueueSection.READY, 10)).extracting(BrowsedMessage::messageId)
                .containsExactly("nine", "four", "two");
        Delivery nine = queue.claim(THREAD, 10).stream().filter(d -> d.messageId().equals("nine")).findFirst()
                .orElseThrow();
        assertThat(queue.ack(List.of(nine.lease()))).containsExactly(Settled.ACKED);
        assertThat(raw.hexists(key("orders", "extras"), "nine")).as("forgotten with the message").isFalse();

        queue.enqueue(at(1, "one"));
        queue.purge();

        assertThat(raw.exists(key("orders", "prioritized"))).isZero();
        assertThat(raw.hkeys(key("orders", "extras"))).as("only the messages in flight").containsExactly("two");
    }

    @Test
    void aQueueThatNeverSeesAPriorityKeepsNoneOfItsKeys() {
        ListQueue queue = queue(false);
        queue.enqueue(List.of(message("m1", "a"), at(NewMessage.DEFAULT_PRIORITY, "m2")));
        List<Delivery> claimed = queue.claim(THREAD, 10);
        assertThat(claimed).extracting(PriorityTest::levelOf).containsOnly(NewMessage.DEFAULT_PRIORITY);
        queue.ack(claimed.stream().map(Delivery::lease).toList());

        assertThat(raw.exists(key("orders", "prioritized"), key("orders", "extras"), key("orders", "cursor")))
                .isZero();
    }

    @Test
    void aBadPriorityAStreamModeQueueAndAReshardRefuseNamingWhatIsWrong() {
        assertThatThrownBy(() -> at(10, "m1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 10");
        ReliableQueue stream = streamQueue("orders", settings(60_000, 3, 100), group("g", "c1"));
        assertThatThrownBy(() -> stream.enqueue(at(9, "m1"))).hasMessageContaining("'m1'")
                .hasMessageContaining("stream-mode queue 'orders'");

        queue(false).enqueue(at(9, "m1"));

        assertThatThrownBy(() -> new ListReshard(gateway, "rr", "orders").requireIdle(1))
                .hasMessageContaining("Queue 'orders' cannot be resharded")
                .hasMessageContaining(NewMessage.PRIORITY_HEADER);
    }
}
