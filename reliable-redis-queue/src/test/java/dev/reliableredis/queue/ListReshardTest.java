package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.list.ListReshard;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardCount;
import dev.reliableredis.queue.sharded.ShardMover;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.sharded.ShardedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A list-mode queue of 3 shards holding ready messages (with and without shard keys), delayed retries, dead letters
 * and remembered acked ids, moved to 2 shards: everything is where a send with 2 shards puts it, with its delivery
 * count, failure and order, nothing is left on shard 2, and every id the queue knew is still a no-op to send again.
 */
class ListReshardTest extends QueueTestBase {

    private static final QueueSettings SETTINGS = settings(30_000, 1, 600_000);

    /** The shard key of each message sent with one. */
    private final Map<String, String> keys = new HashMap<>();
    private final List<String> readyOrder = new ArrayList<>();
    private final Set<String> acked = new HashSet<>();
    private final Set<String> retried = new HashSet<>();
    private final Set<String> dead = new HashSet<>();
    private ShardedQueue three;

    @BeforeEach
    void aQueueOfThreeShardsInEveryState() {
        Queues.shardCount(gateway, "rr", "orders", 3, null).check();
        three = sharded(gateway, 3, SETTINGS);
        // m0..m9 are claimed: m0..m3 acked, m4..m6 failed once (a retry due in 10 minutes), m7..m9 failed for good
        three.enqueue(keyedMessages(0, 10, keys));
        List<Delivery> claimed = claimExactly(three, ids(0, 10));
        three.ack(leasesOf(claimed, "m0", "m1", "m2", "m3"));
        three.nack(failures(claimed, "m4", "m5", "m6"));
        sharded(gateway, 3, settings(30_000, 0, 600_000)).nack(failures(claimed, "m7", "m8", "m9"));
        acked.addAll(List.of("m0", "m1", "m2", "m3"));
        retried.addAll(List.of("m4", "m5", "m6"));
        dead.addAll(List.of("m7", "m8", "m9"));
        three.enqueue(keyedMessages(10, 60, keys));
        three.enqueue(new NewMessage("later", "later".getBytes(), null, 600_000, "customer-1", 3_600_000));
        readyOrder.addAll(ids(10, 60));
        assertThat(counts(three)).isEqualTo(new QueueStats(50, 0, 4, 3));
    }

    @Test
    void everyMessageMovesToWhereASendWithTheNewCountPutsItWithItsStateAndOrder() {
        long moved = new ListReshard(gateway, "rr", "orders").move(3, 2);

        ShardedQueue two = sharded(gateway, 2, SETTINGS);
        assertThat(moved).isPositive();
        assertThat(counts(two)).isEqualTo(new QueueStats(50, 0, 4, 3));
        assertThat(raw.exists(Stream.of("ready", "delayed", "dead", "messages", "leases", "failure", "acked", "extras")
                .map(part -> key("orders#2", part)).toArray(String[]::new)))
                .as("shard 2's messages, states and ids all moved").isZero();
        String laterShard = two.shards().get(ShardPicker.shardOf("customer-1", 2)).name();
        assertThat(raw.hexists(key(laterShard, "extras"), "later"))
                .as("the delayed message's time to live moved with it").isTrue();
        for (int shard = 0; shard < 2; shard++) {
            int s = shard;
            List<String> ready = raw.lrange(key(two.shards().get(shard).name(), "ready"), 0, -1);
            assertThat(ready).as("shard %d holds what a send with 2 shards puts there", shard)
                    .allMatch(id -> ShardPicker.shardOf(keys.getOrDefault(id, id), 2) == s);
            for (String key : Set.copyOf(keys.values())) {
                List<String> ofKey = readyOrder.stream().filter(id -> key.equals(keys.get(id))).toList();
                if (ShardPicker.shardOf(key, 2) == shard) {
                    assertThat(ready.stream().filter(ofKey::contains).toList()).as("key %s in order", key)
                            .isEqualTo(ofKey);
                }
            }
        }
        List<BrowsedMessage> deadLetters = two.browse(QueueSection.DEAD, 10);
        assertThat(deadLetters).extracting(BrowsedMessage::messageId).containsExactlyInAnyOrderElementsOf(dead);
        assertThat(deadLetters).allSatisfy(m -> {
            assertThat(m.deliveries()).isEqualTo(1);
            assertThat(m.failure()).isEqualTo("boom");
        });
        assertThat(two.browse(QueueSection.DELAYED, 10)).extracting(BrowsedMessage::messageId)
                .containsExactlyInAnyOrder("m4", "m5", "m6", "later");
        assertEverySendAgainIsANoOp(two);
        List<Delivery> all = claimExactly(two, readyOrder);
        assertThat(all).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(1));
        assertThat(all).filteredOn(d -> d.messageId().equals("m10")).singleElement()
                .satisfies(d -> assertThat(d.headers()).containsEntry("n", 10)
                        .containsEntry(NewMessage.SHARD_KEY_HEADER, "customer-0"));
    }

    @Test
    void aMoveThatStoppedAfterStoringAChunkOnItsNewShardsFinishesWithoutStoringAnythingTwice() {
        // what a move leaves when it stops between storing a chunk of shard 2 on the new shards and removing it from
        // shard 2: those messages on both
        List<String> onShard2 = raw.lrange(key("orders#2", "ready"), 0, 4);
        for (String id : onShard2) {
            int target = ShardPicker.shardOf(keys.getOrDefault(id, id), 2);
            ListQueue.of(gateway, "rr", QueueNames.shard("orders", target), SETTINGS)
                    .enqueue(new NewMessage(id, "copy".getBytes(), null, 0, keys.get(id)));
        }

        new ListReshard(gateway, "rr", "orders").move(3, 2);

        ShardedQueue two = sharded(gateway, 2, SETTINGS);
        assertThat(onShard2).hasSize(5);
        assertThat(counts(two)).isEqualTo(new QueueStats(50, 0, 4, 3));
        assertThat(counts(three.shards().get(2))).isEqualTo(new QueueStats(0, 0, 0, 0));
        assertThat(claimExactly(two, readyOrder)).extracting(Delivery::messageId)
                .containsExactlyInAnyOrderElementsOf(readyOrder);
    }

    @Test
    void whileAReshardIsUnfinishedEveryEndpointIsRefusedUntilItIsRunAgain() {
        ListReshard mover = new ListReshard(gateway, "rr", "orders");
        ShardMover stopsHalfway = new ShardMover() {
            public List<byte[]> messageKeys(String shard) {
                return mover.messageKeys(shard);
            }

            public void requireIdle(int shards) {
                mover.requireIdle(shards);
            }

            public long move(int from, int to) {
                throw new QueueException("orders", "reshard", new IllegalStateException("the JVM died"));
            }
        };
        new ShardCount(gateway, "rr", "orders", 3, mover).check();
        assertThatThrownBy(() -> new ShardCount(gateway, "rr", "orders", 3, stopsHalfway).reshard(2))
                .hasMessageContaining("the JVM died");

        for (int count : new int[] {2, 3}) {
            assertThatThrownBy(() -> new ShardCount(gateway, "rr", "orders", count, mover).check())
                    .hasMessageContaining("Queue 'orders' is being resharded from 3 to 2 shards")
                    .hasMessageContaining("CamelReliableRedisShards=2");
        }
        new ShardCount(gateway, "rr", "orders", 3, mover).reshard(2);

        new ShardCount(gateway, "rr", "orders", 2, mover).check();
        assertThat(counts(sharded(gateway, 2, SETTINGS))).isEqualTo(new QueueStats(50, 0, 4, 3));
    }

    @Test
    void aQueueThatIsConsumedIsRefusedNamingWhatIsInFlight() {
        three.claim(new Claimant("consumer#0", Duration.ofMinutes(1)), 1);

        assertThatThrownBy(() -> new ListReshard(gateway, "rr", "orders").requireIdle(3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Queue 'orders' cannot be resharded while it is consumed")
                .hasMessageContaining("1 message(s)").hasMessageContaining("1 live consumer thread(s)");
    }

    @Test
    void anUnshardedQueueIsSpreadOverNewShards() {
        ListQueue one = ListQueue.of(gateway, "rr", "single", SETTINGS);
        one.enqueue(IntStream.range(0, 40).mapToObj(i -> message("s" + i, "b")).toList());

        new ListReshard(gateway, "rr", "single").move(1, 4);

        ShardedQueue four = ShardedQueue.of("single", 4, i -> ListQueue.of(gateway, "rr", QueueNames.shard("single", i),
                SETTINGS));
        for (int shard = 0; shard < 4; shard++) {
            int s = shard;
            assertThat(raw.lrange(key(QueueNames.shard("single", shard), "ready"), 0, -1))
                    .allMatch(id -> ShardPicker.shardOf(id, 4) == s);
        }
        assertThat(counts(four).ready()).isEqualTo(40);
    }

    private void assertEverySendAgainIsANoOp(ShardedQueue two) {
        List<NewMessage> again = new ArrayList<>();
        for (String id : readyOrder) {
            again.add(new NewMessage(id, "again".getBytes(), null, 0, keys.get(id)));
        }
        for (String id : acked) {
            // an acked id is remembered on every shard, whatever key it is sent with now
            again.add(new NewMessage(id, "again".getBytes(), null, 0, "any-key"));
        }
        for (String id : retried) {
            again.add(new NewMessage(id, "again".getBytes(), null, 0, keys.get(id)));
        }
        assertThat(two.enqueue(again)).as("every id is known where it is sent").containsOnly(false);
    }

    private static ShardedQueue sharded(RedisGateway on, int count, QueueSettings settings) {
        return ShardedQueue.of("orders", count, i -> ListQueue.of(on, "rr", QueueNames.shard("orders", i), settings));
    }

    private static List<Lease> leasesOf(List<Delivery> claimed, String... ids) {
        Set<String> wanted = Set.of(ids);
        return claimed.stream().filter(d -> wanted.contains(d.messageId())).map(Delivery::lease).toList();
    }

    private static List<Failure> failures(List<Delivery> claimed, String... ids) {
        return leasesOf(claimed, ids).stream().map(lease -> new Failure(lease, "boom")).toList();
    }
}
