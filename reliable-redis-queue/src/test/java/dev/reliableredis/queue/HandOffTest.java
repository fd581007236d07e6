package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The hand-off: the ack of a delivery and the enqueue of what its exchange sent, in one script call, fenced by the
 * delivery's lease token, all or nothing; in list mode between list-mode queues, in stream mode between stream-mode
 * queues.
 */
class HandOffTest extends QueueTestBase {

    private static final QueueSettings SETTINGS = settings(60_000, 3, 100);

    private static NewMessage grouped(String id, String group) {
        return new NewMessage(id, id.getBytes(), null, 0, null, 0, NewMessage.DEFAULT_PRIORITY, group);
    }

    /** Enqueues the input m1 into {@code a} and claims it. */
    private Delivery claimedInput(ReliableQueue a) {
        a.enqueue(message("m1", "in"));
        return claimOne(a);
    }

    /** Hands the delivery of m1 off with one message each for b and c, m1/b/0 and m1/c/0. */
    private static Settled handOffOneEach(ReliableQueue a, Delivery delivery, ReliableQueue b, ReliableQueue c) {
        return RedisGateway.await(a.handOffAsync(delivery.lease(), List.of(
                new HandOff(b, List.of(message("m1/b/0", "out"))), new HandOff(c, List.of(message("m1/c/0", "out"))))));
    }

    /** The hand-off of the two messages m1/b/0 and m1/b/1 to {@code b}. */
    private static HandOff twoFor(ReliableQueue b) {
        return new HandOff(b, List.of(message("m1/b/0", "out 0"), message("m1/b/1", "out 1")));
    }

    private Delivery claimOne(ReliableQueue queue) {
        List<Delivery> claimed = queue.claim(1);
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    private static List<String> readyIds(ReliableQueue queue) {
        return queue.browse(QueueSection.READY, 100).stream().map(BrowsedMessage::messageId).toList();
    }

    @Test
    void theAckEnqueuesWhatTheExchangeSentIntoEveryTargetQueue() {
        ListQueue a = queue("a", SETTINGS);
        ListQueue b = queue("b", SETTINGS);
        ListQueue c = queue("c", SETTINGS);
        Delivery delivery = claimedInput(a);

        Settled settled = RedisGateway.await(a.handOffAsync(delivery.lease(), List.of(twoFor(b),
                new HandOff(c, List.of(grouped("m1/c/0", "g"))))));

        assertThat(settled).isEqualTo(Settled.ACKED);
        assertThat(counts(a)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(readyIds(b)).containsExactly("m1/b/0", "m1/b/1");
        assertThat(readyIds(c)).containsExactly("m1/c/0");
        assertThat(c.stats().groups()).isEqualTo(1);
        assertThat(a.enqueue(message("m1", "again"))).as("the input is remembered as acked").isFalse();
        assertThat(new String(claimOne(b).body())).isEqualTo("out 0");
    }

    /** The enqueues write before the ack: a consumed queue's messages hash of the wrong type stops them all. */
    @Test
    void aBrokenMessagesHashOfTheConsumedQueueEnqueuesNothing() {
        ListQueue a = queue("a", SETTINGS);
        ListQueue b = queue("b", SETTINGS);
        Delivery delivery = claimedInput(a);
        raw.del(key("a", "messages"));
        raw.set(key("a", "messages"), "not a hash");

        assertThatThrownBy(() -> RedisGateway.await(a.handOffAsync(delivery.lease(),
                List.of(new HandOff(b, List.of(message("m1/b/0", "out"))))))).hasMessageContaining("WRONGTYPE");

        assertThat(counts(b)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(raw.zscore(key("a", "inflight"), "m1")).isNotNull();
    }

    @Test
    void aLeaseThatIsNoLongerCurrentEnqueuesNothingAndTheCurrentOneEnqueuesOnce() {
        ListQueue a = queue("a", SETTINGS);
        ListQueue b = queue("b", SETTINGS);
        Delivery zombie = claimedInput(a);
        assertThat(a.release(List.of(zombie.lease()))).isEqualTo(1);
        Delivery current = claimOne(a);
        List<HandOff> sent = List.of(new HandOff(b, List.of(message("m1/b/0", "out"))));

        assertThat(RedisGateway.await(a.handOffAsync(zombie.lease(), sent))).isEqualTo(Settled.REFUSED);
        assertThat(counts(b)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(a.stats().inflight()).isEqualTo(1);

        assertThat(RedisGateway.await(a.handOffAsync(current.lease(), sent))).isEqualTo(Settled.ACKED);
        assertThat(RedisGateway.await(a.handOffAsync(current.lease(), sent)))
                .as("a retry of a call whose reply was lost").isEqualTo(Settled.REFUSED);
        assertThat(readyIds(b)).containsExactly("m1/b/0");
    }

    @Test
    void aMessageTheTargetAlreadyHoldsIsNotEnqueuedAgain() {
        ListQueue a = queue("a", SETTINGS);
        ListQueue b = queue("b", SETTINGS);
        b.enqueue(message("m1/b/0", "sent before"));
        Delivery delivery = claimedInput(a);

        assertThat(RedisGateway.await(a.handOffAsync(delivery.lease(), List.of(twoFor(b))))).isEqualTo(Settled.ACKED);

        assertThat(readyIds(b)).containsExactly("m1/b/0", "m1/b/1");
        assertThat(new String(claimOne(b).body())).isEqualTo("sent before");
    }

    @Test
    void aTargetThatCannotTakeItsMessagesFailsTheCallBeforeAnythingIsWritten() {
        ListQueue a = queue("a", SETTINGS);
        ListQueue b = queue("b", SETTINGS);
        ListQueue c = queue("c", SETTINGS);
        Delivery delivery = claimedInput(a);
        raw.set(key("c", "ready"), "not a list");

        assertThatThrownBy(() -> handOffOneEach(a, delivery, b, c))
                .hasMessageContaining("WRONGTYPE").hasMessageContaining(key("c", "ready"));

        assertThat(counts(b)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(a.stats().inflight()).as("the delivery is still held").isEqualTo(1);
        raw.del(key("c", "ready"));
        assertThat(handOffOneEach(a, delivery, b, c)).isEqualTo(Settled.ACKED);
        assertThat(readyIds(c)).containsExactly("m1/c/0");
    }

    @Test
    void onlyUnshardedListQueuesOnTheSameRedisAndDatabaseTakeAHandOff() {
        ListQueue a = queue("a", SETTINGS);
        RedisURI otherDatabase = RedisURI.create(redis.uri());
        otherDatabase.setDatabase(1);
        try (RedisGateway sameServer = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(5));
             RedisGateway database1 = RedisGateway.create(resources, otherDatabase, Duration.ofSeconds(5))) {
            assertThat(a.canHandOffTo(queue("b", SETTINGS))).isTrue();
            assertThat(a.canHandOffTo(ListQueue.of(sameServer, "rr", "b", SETTINGS))).as("another connection").isTrue();
            assertThat(a.canHandOffTo(ListQueue.of(database1, "rr", "b", SETTINGS))).as("another database").isFalse();
            assertThat(a.canHandOffTo(ShardedQueue.of("b", 2, i -> queue(QueueNames.shard("b", i), SETTINGS))))
                    .as("sharded").isFalse();
            assertThatThrownBy(() -> a.handOffAsync(new Lease("m1", "m1", "1"), List.of(
                    new HandOff(ListQueue.of(database1, "rr", "b", SETTINGS), List.of(message("x", "y"))))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot hand messages off");
        }
    }

    private StreamQueue stream(String name) {
        return streamQueue(name, SETTINGS, group("g", "c1"));
    }

    private List<String> streamIds(String queue) {
        return raw.xrange(key(queue, "stream"), io.lettuce.core.Range.create("-", "+")).stream()
                .map(e -> e.getBody().get("id")).toList();
    }

    @Test
    void inStreamModeTheAckEnqueuesWhatTheExchangeSentIntoEveryTargetQueue() {
        StreamQueue a = stream("a");
        StreamQueue b = stream("b");
        StreamQueue c = stream("c");
        Delivery delivery = claimedInput(a);

        Settled settled = RedisGateway.await(a.handOffAsync(delivery.lease(), List.of(twoFor(b),
                new HandOff(c, List.of(new NewMessage("m1/c/0", "later".getBytes(), null, 60_000))))));

        assertThat(settled).isEqualTo(Settled.ACKED);
        assertThat(counts(a)).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(streamIds("b")).containsExactly("m1/b/0", "m1/b/1");
        assertThat(counts(c)).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThat(a.enqueue(message("m1", "again"))).as("the input is remembered as acked").isFalse();
        assertThat(new String(claimOne(b).body())).isEqualTo("out 0");
    }

    @Test
    void inStreamModeADeliveryNoLongerPendingAtItsCountEnqueuesNothing() {
        StreamQueue a = stream("a");
        StreamQueue b = stream("b");
        Delivery delivery = claimedInput(a);
        Lease stale = new Lease(delivery.lease().messageId(), delivery.lease().ref(), "7");
        List<HandOff> sent = List.of(new HandOff(b, List.of(message("m1/b/0", "out"))));

        assertThat(RedisGateway.await(a.handOffAsync(stale, sent))).isEqualTo(Settled.REFUSED);
        assertThat(raw.exists(key("b", "stream"), key("b", "ids"))).isZero();
        assertThat(a.stats().inflight()).isEqualTo(1);

        assertThat(RedisGateway.await(a.handOffAsync(delivery.lease(), sent))).isEqualTo(Settled.ACKED);
        assertThat(RedisGateway.await(a.handOffAsync(delivery.lease(), sent))).isEqualTo(Settled.REFUSED);
        assertThat(streamIds("b")).containsExactly("m1/b/0");
    }

    @Test
    void inStreamModeATargetThatCannotTakeItsMessagesFailsTheCallBeforeAnythingIsWritten() {
        StreamQueue a = stream("a");
        StreamQueue b = stream("b");
        StreamQueue c = stream("c");
        Delivery delivery = claimedInput(a);
        raw.set(key("c", "stream"), "not a stream");

        assertThatThrownBy(() -> handOffOneEach(a, delivery, b, c))
                .hasMessageContaining("WRONGTYPE").hasMessageContaining(key("c", "stream"));

        assertThat(raw.exists(key("b", "stream"), key("b", "ids"))).isZero();
        assertThat(a.stats().inflight()).as("the delivery is still held").isEqualTo(1);
    }

    @Test
    void aHandOffStaysWithinOneMode() {
        assertThat(stream("a").canHandOffTo(stream("b"))).isTrue();
        assertThat(stream("a").canHandOffTo(queue("b", SETTINGS))).isFalse();
        assertThat(queue("a", SETTINGS).canHandOffTo(stream("b"))).isFalse();
    }
}
