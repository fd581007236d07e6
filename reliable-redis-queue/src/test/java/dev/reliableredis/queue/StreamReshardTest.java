package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.queue.stream.StreamReshard;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A stream-mode queue of 3 shards holding unread entries (with and without shard keys), a delayed message, dead
 * letters and remembered acked ids, moved to 2 shards: everything is where a send with 2 shards puts it, in order
 * per key, dead letters with their failure and deliveries, nothing left on shard 2, every id still a no-op to send
 * again, and everything consumed once by the same group.
 */
class StreamReshardTest extends QueueTestBase {

    private static final QueueSettings SETTINGS = settings(30_000, 0, 600_000);
    private static final StreamOptions GROUP = group("g", "c1");

    private final Map<String, String> keys = new HashMap<>();
    private final List<String> readyOrder = new ArrayList<>();
    private ShardedQueue three;

    @BeforeEach
    void aQueueOfThreeShardsWithMessagesOfEveryKind() {
        three = sharded(3);
        // m0..m9 are claimed: m0..m3 acked, m4..m9 failed for good (dead letters)
        three.enqueue(keyedMessages(0, 10, keys));
        List<Delivery> claimed = claimExactly(three, ids(0, 10));
        three.ack(claimed.stream().filter(d -> Set.of("m0", "m1", "m2", "m3").contains(d.messageId()))
                .map(Delivery::lease).toList());
        three.nack(claimed.stream().filter(d -> !Set.of("m0", "m1", "m2", "m3").contains(d.messageId()))
                .map(d -> new Failure(d.lease(), "boom")).toList());
        three.enqueue(keyedMessages(10, 60, keys));
        three.enqueue(List.of(new NewMessage("living", "living".getBytes(), null, 0, "customer-1", 3_600_000),
                new NewMessage("later", "later".getBytes(), null, 600_000, "customer-1", 3_600_000)));
        keys.put("living", "customer-1");
        readyOrder.addAll(ids(10, 60));
        readyOrder.add("living");
        assertThat(counts(three)).isEqualTo(new QueueStats(51, 0, 1, 6));
    }

    @Test
    void everyMessageMovesToWhereASendWithTheNewCountPutsIt() {
        long moved = new StreamReshard(gateway, "rr", "orders").move(3, 2);

        ShardedQueue two = sharded(2);
        assertThat(moved).isPositive();
        assertThat(counts(two)).isEqualTo(new QueueStats(51, 0, 1, 6));
        String laterShard = key(QueueNames.shard("orders", ShardPicker.shardOf("customer-1", 2)), "");
        assertThat(raw.xrange(laterShard + "stream", io.lettuce.core.Range.create("-", "+")).stream()
                .map(StreamMessage::getBody).filter(body -> "living".equals(body.get("id"))).findFirst().orElseThrow())
                .as("the time to live moved with the entry").containsKey("expires");
        assertThat(raw.hget(laterShard + "delayed-msg", "later"))
                .as("and with the delayed message, its last packed value").matches("(?s).*\\d{13}$");
        assertThat(raw.xlen(key("orders#2", "stream")) + raw.xlen(key("orders#2", "dead"))).isZero();
        assertThat(raw.hlen(key("orders#2", "ids"))).isZero();
        for (int shard = 0; shard < 2; shard++) {
            int s = shard;
            List<String> unread = raw.xrange(key(QueueNames.shard("orders", shard), "stream"),
                            io.lettuce.core.Range.create("-", "+")).stream()
                    .map(StreamMessage::getBody).map(body -> body.get("id")).filter(readyOrder::contains).toList();
            assertThat(unread).as("shard %d holds what a send with 2 shards puts there", shard)
                    .allMatch(id -> ShardPicker.shardOf(keys.getOrDefault(id, id), 2) == s);
            for (String key : Set.copyOf(keys.values())) {
                if (ShardPicker.shardOf(key, 2) == shard) {
                    assertThat(unread.stream().filter(id -> key.equals(keys.get(id))).toList()).as("key %s in order", key)
                            .isEqualTo(readyOrder.stream().filter(id -> key.equals(keys.get(id))).toList());
                }
            }
        }
        assertThat(two.browse(QueueSection.DEAD, 10)).hasSize(6).allSatisfy(m -> {
            assertThat(m.failure()).isEqualTo("boom");
            assertThat(m.deliveries()).isEqualTo(1);
        });
        assertThat(two.browse(QueueSection.DELAYED, 10)).extracting(BrowsedMessage::messageId).containsExactly("later");
        List<NewMessage> again = new ArrayList<>();
        readyOrder.forEach(id -> again.add(new NewMessage(id, "again".getBytes(), null, 0, keys.get(id))));
        ids(0, 10).forEach(id -> again.add(new NewMessage(id, "again".getBytes(), null, 0, keys.get(id))));
        again.add(new NewMessage("later", "again".getBytes(), null, 0, "customer-1"));
        assertThat(two.enqueue(again)).as("every id is known where it is sent").containsOnly(false);
        List<Delivery> all = claimExactly(two, readyOrder);
        assertThat(all).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(1));
    }

    @Test
    void aMoveThatStoppedAfterStoringAChunkOnItsNewShardsFinishesWithoutStoringAnythingTwice() {
        List<String> onShard2 = raw.xrange(key("orders#2", "stream"), io.lettuce.core.Range.create("-", "+")).stream()
                .map(StreamMessage::getBody).map(body -> body.get("id")).filter(readyOrder::contains).limit(5).toList();
        for (String id : onShard2) {
            int target = ShardPicker.shardOf(keys.getOrDefault(id, id), 2);
            StreamQueue.of(gateway, "rr", QueueNames.shard("orders", target), GROUP, SETTINGS)
                    .enqueue(new NewMessage(id, "copy".getBytes(), null, 0, keys.get(id)));
        }

        new StreamReshard(gateway, "rr", "orders").move(3, 2);

        ShardedQueue two = sharded(2);
        assertThat(onShard2).hasSize(5);
        assertThat(counts(two)).isEqualTo(new QueueStats(51, 0, 1, 6));
        assertThat(claimExactly(two, readyOrder)).extracting(Delivery::messageId)
                .containsExactlyInAnyOrderElementsOf(readyOrder);
    }

    @Test
    void aQueueWithAnythingPendingIsRefusedNamingIt() {
        three.claim(new Claimant("consumer#0", Duration.ofMinutes(1)), 1);

        assertThatThrownBy(() -> new StreamReshard(gateway, "rr", "orders").requireIdle(3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Queue 'orders' cannot be resharded while it is consumed")
                .hasMessageContaining("1 entr(ies) pending").hasMessageContaining("1 live consumer thread(s)");
    }

    @Test
    void groupsAtDifferentPositionsAreRefused() {
        // a second group that has read the first entries of every shard, which group g has not
        ShardedQueue other = ShardedQueue.of("orders", 3, i -> StreamQueue.of(gateway, "rr", QueueNames.shard("orders", i),
                group("other", "c2"), SETTINGS));
        List<Delivery> read = other.claim(new Claimant("t", Duration.ofMillis(1)), 5);
        other.ack(read.stream().map(Delivery::lease).toList());

        // once the claimant of those reads no longer counts as live, 1 ms after its claim
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThatThrownBy(
                () -> new StreamReshard(gateway, "rr", "orders").requireIdle(3))
                .hasMessageContaining("to different positions"));
    }

    private ShardedQueue sharded(int count) {
        return ShardedQueue.of("orders", count, i -> StreamQueue.of(gateway, "rr", QueueNames.shard("orders", i), GROUP,
                SETTINGS));
    }

}
