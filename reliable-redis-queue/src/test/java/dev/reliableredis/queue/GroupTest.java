package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import dev.reliableredis.queue.QueueSettings.ExpiredMessages;
import dev.reliableredis.queue.QueueSettings.GroupOnDeadLetter;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.list.ListReshard;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.sharded.ShardedQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * List mode's FIFO message groups: one message of a group out at a time, in enqueue order; other groups and
 * ungrouped messages flow past; a retry or an expired lease holds only its group; a dead letter lets its group go on,
 * or (groupOnDeadLetter=block) holds it until redriven; a queue that never sees a group keeps none of its keys.
 */
class GroupTest extends QueueTestBase {

    private static NewMessage grouped(String group, String id) {
        return new NewMessage(id, id.getBytes(), null, 0, null, 0, NewMessage.DEFAULT_PRIORITY, group);
    }

    private static List<String> claimIds(ReliableQueue queue) {
        return queue.claim(THREAD, 100).stream().map(Delivery::messageId).toList();
    }

    private static Delivery claimOne(ReliableQueue queue, String id) {
        List<Delivery> claimed = queue.claim(THREAD, 100);
        assertThat(claimed).extracting(Delivery::messageId).containsExactly(id);
        return claimed.get(0);
    }

    @Test
    void aBatchTakesOneMessageOfEachGroupAndAnAckLetsTheNextOfItsGroupGo() {
        ListQueue queue = queue("orders", settings(60_000, 3, 100));
        queue.enqueue(List.of(grouped("A", "a1"), grouped("A", "a2"), grouped("B", "b1"), message("u1", "none"),
                grouped("A", "a3"), grouped("B", "b2"), message("u2", "none")));

        assertThat(queue.stats().groups()).isEqualTo(2);
        assertThat(queue.stats().ready()).as("the groups' lines count as ready").isEqualTo(7);
        List<Delivery> first = queue.claim(THREAD, 100);
        assertThat(first).extracting(Delivery::messageId).containsExactly("a1", "b1", "u1", "u2");
        assertThat(first.get(0).headers()).containsEntry(NewMessage.GROUP_HEADER, "A");
        assertThat(claimIds(queue)).as("each group's next waits for its current one").isEmpty();

        queue.ack(List.of(first.get(0).lease()));
        assertThat(claimIds(queue)).containsExactly("a2");
        queue.ack(List.of(first.get(1).lease()));
        assertThat(claimIds(queue)).containsExactly("b2");
        assertThat(queue.browse(QueueSection.READY, 10)).extracting(BrowsedMessage::messageId).containsExactly("a3");
    }

    @Test
    void aGroupOf10000DoesNotDelay10MessagesOfAnotherGroupSentAfterIt() {
        ListQueue queue = queue("orders", settings(60_000, 3, 100));
        for (int from = 0; from < 10_000; from += 1000) {
            queue.enqueue(IntStream.range(from, from + 1000).mapToObj(i -> grouped("slow", "s" + i)).toList());
        }
        queue.enqueue(IntStream.range(0, 10).mapToObj(i -> grouped("fast", "f" + i)).toList());

        List<String> order = new ArrayList<>();
        while (order.stream().filter(id -> id.startsWith("f")).count() < 10) {
            List<Delivery> claimed = queue.claim(THREAD, 100);
            claimed.forEach(d -> order.add(d.messageId()));
            queue.ack(claimed.stream().map(Delivery::lease).toList());
        }

        assertThat(order.stream().filter(id -> id.startsWith("f")))
                .containsExactly("f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9");
        assertThat(order.stream().filter(id -> id.startsWith("s")))
                .as("the slow group's messages run beside the fast group's, one for one, in order")
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "s" + i).toList());
    }

    @Test
    void aFailingHeadHoldsOnlyItsGroupUntilItsRetryAndAnExpiredLeaseKeepsTheOrder() {
        ListQueue queue = queue("orders", settings(300, 3, 50));
        queue.enqueue(List.of(grouped("A", "a1"), grouped("A", "a2"), grouped("B", "b1"), grouped("B", "b2")));
        List<Delivery> first = queue.claim(THREAD, 100);
        assertThat(first).extracting(Delivery::messageId).containsExactly("a1", "b1");

        queue.nack(List.of(new Failure(first.get(0).lease(), "boom")));
        queue.ack(List.of(first.get(1).lease()));
        queue.ack(List.of(claimOne(queue, "b2").lease()));
        assertThat(claimIds(queue)).as("B went on, A waits for its retry").isEmpty();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.reap().delayedReleased() == 1);
        Delivery retried = claimOne(queue, "a1");
        assertThat(retried.deliveryCount()).isEqualTo(2);

        // its consumer dies: the lease expires, and a1 comes back before a2
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.reap().expiredReturned() == 1);
        queue.ack(List.of(claimOne(queue, "a1").lease()));
        claimOne(queue, "a2");
    }

    @Test
    void aDeadLetteredHeadLetsItsGroupGoOnAndARedriveMakesItTheGroupsNext() {
        ListQueue queue = queue("orders", settings(60_000, 0, 50));
        queue.enqueue(List.of(grouped("A", "a1"), grouped("A", "a2"), grouped("A", "a3")));
        assertThat(queue.nack(List.of(new Failure(claimOne(queue, "a1").lease(), "boom"))))
                .containsExactly(Settled.DEAD_LETTERED);
        Delivery a2 = claimOne(queue, "a2");

        assertThat(queue.redrive("a1")).isTrue();
        assertThat(claimIds(queue)).as("a2 is still out").isEmpty();
        queue.ack(List.of(a2.lease()));
        queue.ack(List.of(claimOne(queue, "a1").lease()));
        claimOne(queue, "a3");
    }

    @Test
    void withGroupOnDeadLetterBlockTheGroupWaitsForItsDeadLetterUntilRedrivenOrConsumed() {
        QueueSettings block = settings(60_000, 0, 50).toBuilder().groupOnDeadLetter(GroupOnDeadLetter.BLOCK).build();
        ListQueue queue = queue("orders", block);
        queue.enqueue(List.of(grouped("A", "a1"), grouped("A", "a2"), grouped("A", "a3"), grouped("B", "b1")));
        List<Delivery> first = queue.claim(THREAD, 100);
        queue.nack(List.of(new Failure(first.get(0).lease(), "boom")));

        assertThat(claimIds(queue)).as("only B's").isEmpty();
        assertThat(queue.stats().groups()).isEqualTo(2);
        assertThat(queue.redrive("a1")).isTrue();
        Delivery a1 = claimOne(queue, "a1");
        queue.nack(List.of(new Failure(a1.lease(), "boom again")));

        ListQueue deadLetters = queue.deadLetters();
        List<Delivery> dead = deadLetters.claim(THREAD, 10);
        assertThat(dead).extracting(Delivery::messageId).containsExactly("a1");
        deadLetters.ack(List.of(dead.get(0).lease()));
        claimOne(queue, "a2");
    }

    @Test
    void anExpiredHeadLetsItsGroupGoOn() {
        ListQueue queue = queue("orders",
                settings(60_000, 3, 50).toBuilder().expiredMessages(ExpiredMessages.DROP).build());
        queue.enqueue(List.of(new NewMessage("a1", new byte[0], null, 0, null, 50, NewMessage.DEFAULT_PRIORITY, "A"),
                grouped("A", "a2")));
        long ends = Long.parseLong(raw.hget(key("orders", "extras"), "a1").split("\\|")[0]);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> now() > ends);

        assertThat(claimIds(queue)).as("a1 dropped").isEmpty();
        assertThat(raw.hexists(key("orders", "extras"), "a1")).as("dropped with its message").isFalse();
        claimOne(queue, "a2");
    }

    @Test
    void aMalformedHeadIsDeadLetteredAndLetsItsGroupGoOn() {
        ListQueue queue = queue("orders", settings(60_000, 3, 50));
        queue.enqueue(List.of(grouped("A", "a1"), grouped("A", "a2")));
        raw.hset(key("orders", "messages"), "a1", "1700000000000|x|a1");

        assertThat(claimIds(queue)).as("a1 dead-lettered, a2 made ready behind the batch").isEmpty();
        assertThat(raw.hget(key("orders", "failure"), "a1"))
                .isEqualTo("malformed record: headers length 'x' is not a number");
        claimOne(queue, "a2");
    }

    @Test
    void purgeEmptiesTheGroupsAndAQueueWithoutGroupsKeepsNoneOfTheirKeys() {
        ListQueue queue = queue("orders", settings(60_000, 3, 50));
        queue.enqueue(List.of(message("u1", "none")));
        queue.ack(queue.claim(THREAD, 10).stream().map(Delivery::lease).toList());
        assertThat(raw.exists(key("orders", "extras"), key("orders", "groups"), key("orders", "grouped"))).isZero();

        queue.enqueue(IntStream.range(0, 5).mapToObj(i -> grouped("A", "a" + i)).toList());
        queue.enqueue(List.of(grouped("B", "b0")));
        assertThat(queue.purge()).isEqualTo(6);
        assertThat(raw.exists(key("orders", "extras"), key("orders", "groups"), key("orders", "grouped"))).isZero();
        assertThat(queue.stats().groups()).isZero();
    }

    @Test
    void theGroupIdPicksTheShard() {
        ShardedQueue queue = ShardedQueue.of("orders", 3, i -> ListQueue.of(gateway, "rr",
                QueueNames.shard("orders", i), settings(60_000, 3, 50)));
        queue.enqueue(IntStream.range(0, 6).mapToObj(i -> grouped("customer-7", "m" + i)).toList());

        int shard = ShardPicker.shardOf("customer-7", 3);
        assertThat(counts(queue.shards().get(shard)).ready()).isEqualTo(6);
        assertThat(claimIds(queue)).containsExactly("m0");
    }

    @Test
    void aDelayAPriorityAnotherShardKeyStreamModeAndAReshardAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> new NewMessage("m1", new byte[0], null, 10, null, 0, 4, "A"))
                .hasMessageContaining("Message m1 of group 'A' has a delay of 10 ms");
        assertThatThrownBy(() -> new NewMessage("m1", new byte[0], null, 0, null, 0, 9, "A"))
                .hasMessageContaining("has priority 9");
        assertThatThrownBy(() -> new NewMessage("m1", new byte[0], null, 0, "other", 0, 4, "A"))
                .hasMessageContaining("has shard key 'other'");
        assertThatThrownBy(() -> grouped("", "m1")).hasMessageContaining("must be 1 to 128 characters, was 0");
        ReliableQueue stream = streamQueue("orders", settings(60_000, 3, 100), group("g", "c1"));
        assertThatThrownBy(() -> stream.enqueue(grouped("A", "m1"))).hasMessageContaining("'m1'")
                .hasMessageContaining("stream-mode queue 'orders' has no message groups");

        queue("orders", settings(60_000, 3, 100)).enqueue(grouped("A", "m1"));
        assertThatThrownBy(() -> new ListReshard(gateway, "rr", "orders").requireIdle(1))
                .hasMessageContaining("Queue 'orders' cannot be resharded")
                .hasMessageContaining(NewMessage.GROUP_HEADER);
    }
}
