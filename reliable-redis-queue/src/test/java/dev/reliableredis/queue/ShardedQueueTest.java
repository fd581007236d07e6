package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A queue over three shards, in both modes: where messages go, and that every operation reaches every shard. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ShardedQueueTest extends QueueTestBase {

    private static final int SHARDS = 3;

    private ShardedQueue sharded(QueueSettings settings) {
        return shardedOfMode(gateway, "orders", SHARDS, settings);
    }

    private ShardedQueue sharded() {
        return sharded(settings(30_000, 0, 100));
    }

    private static List<NewMessage> messages(int count) {
        return IntStream.range(0, count).mapToObj(i -> message("m" + i, "body " + i)).toList();
    }

    @Test
    void eachMessageIsStoredInTheShardItsIdPicksAndShardZeroIsTheQueuesOwnKeys() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(60));

        for (int shard = 0; shard < SHARDS; shard++) {
            int picked = shard;
            long expected = IntStream.range(0, 60).filter(i -> ShardPicker.shardOf("m" + i, SHARDS) == picked)
                    .count();
            assertThat(expected).as("ids for shard %d", shard).isPositive();
            assertThat(counts(queue.shards().get(shard)).ready()).as("shard %d", shard).isEqualTo(expected);
        }
        assertThat(RedisProcess.keys(raw, "rr:{orders}:*")).isNotEmpty();
        assertThat(RedisProcess.keys(raw, "rr:{orders#1}:*")).isNotEmpty();
        assertThat(RedisProcess.keys(raw, "rr:{orders#2}:*")).isNotEmpty();
        assertThat(RedisProcess.keys(raw, "rr:{orders#3}:*")).isEmpty();
        assertThat(counts(queue)).isEqualTo(new QueueStats(60, 0, 0, 0));
    }

    @Test
    void aShardKeyPutsEveryMessageWithItInOneShard() {
        ShardedQueue queue = sharded();
        List<NewMessage> related = IntStream.range(0, 20)
                .mapToObj(i -> new NewMessage("r" + i, new byte[] {(byte) i}, null, 0, "customer-42")).toList();
        queue.enqueue(related);

        int shard = ShardPicker.shardOf("customer-42", SHARDS);
        assertThat(counts(queue.shards().get(shard)).ready()).isEqualTo(20);
        List<Delivery> claimed = queue.shards().get(shard).claim(20);
        assertThat(claimed).extracting(Delivery::messageId)
                .containsExactlyElementsOf(related.stream().map(NewMessage::id).toList());
    }

    @Test
    void aBatchOverSeveralShardsAnswersInTheCallersOrderAndAKnownIdIsANoOpAcrossCalls() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(10));

        List<NewMessage> again = new ArrayList<>(messages(10));
        again.add(3, message("new-1", "x"));
        again.add(message("new-2", "y"));
        List<Boolean> stored = queue.enqueue(again);

        List<Boolean> expected = new ArrayList<>(Collections.nCopies(12, false));
        expected.set(3, true);
        expected.set(11, true);
        assertThat(stored).isEqualTo(expected);
        assertThat(counts(queue).ready()).isEqualTo(12);
    }

    @Test
    void claimsReachEveryShardAndSettlementsGoBackToTheShardThatLeased() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(30));

        List<Delivery> claimed = claimAll(queue, 30);
        assertThat(claimed).extracting(Delivery::messageId).containsExactlyInAnyOrderElementsOf(
                messages(30).stream().map(NewMessage::id).toList());
        List<Lease> leases = claimed.stream().map(Delivery::lease).toList();
        assertThat(queue.extend(leases)).containsOnly(Settled.EXTENDED);
        assertThat(queue.release(leases.subList(0, 5))).isEqualTo(5);
        assertThat(queue.ack(leases.subList(5, 20))).containsOnly(Settled.ACKED);
        assertThat(queue.nack(leases.subList(20, 30).stream().map(l -> new Failure(l, "boom")).toList()))
                .containsOnly(Settled.DEAD_LETTERED);

        assertThat(counts(queue)).isEqualTo(new QueueStats(5, 0, 0, 10));
        assertThat(queue.ack(leases.subList(5, 6))).as("settled already").containsExactly(Settled.REFUSED);
    }

    @Test
    void aClaimIsABatchOfOneShardSoThatTheShardsScriptSeesTheBatchWhole() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(30));

        for (int i = 0; i < SHARDS; i++) {
            List<Delivery> batch = queue.claim(30);
            assertThat(batch).isNotEmpty();
            assertThat(batch).extracting(d -> d.lease().ref().split("#")[0]).containsOnly(batch.get(0).lease().ref()
                    .split("#")[0]);
        }
        assertThat(queue.claim(30)).isEmpty();
    }

    @Test
    void claimsStartAtAnotherShardEachTimeSoThatNoShardWaitsBehindTheOthers() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(60));

        List<String> firstOfEachClaim = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            firstOfEachClaim.add(queue.claim(1).get(0).lease().ref().split("#")[0]);
        }
        assertThat(firstOfEachClaim).containsExactlyInAnyOrder("0", "1", "2");
    }

    @Test
    void deadLettersOfEveryShardAreRedrivenCountedBrowsedAndPurged() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(30));
        List<Delivery> claimed = claimAll(queue, 30);
        queue.nack(claimed.stream().map(d -> new Failure(d.lease(), "boom")).toList());
        for (ReliableQueue shard : queue.shards()) {
            assertThat(counts(shard).dead()).isPositive();
        }
        assertThat(queue.browse(QueueSection.DEAD, 1000)).hasSize(30);
        assertThat(queue.browse(QueueSection.DEAD, 7)).hasSize(7);

        String notInShardZero = IntStream.range(0, 30).mapToObj(i -> "m" + i)
                .filter(id -> ShardPicker.shardOf(id, SHARDS) != 0).findFirst().orElseThrow();
        assertThat(queue.redrive(notInShardZero)).isTrue();
        assertThat(queue.redrive(notInShardZero)).isFalse();
        assertThat(queue.redrive(4)).isEqualTo(4);
        assertThat(counts(queue)).isEqualTo(new QueueStats(5, 0, 0, 25));

        assertThat(queue.purge()).isEqualTo(30);
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void theDeadLetterViewClaimsDeadLettersOfEveryShard() {
        ShardedQueue queue = sharded();
        queue.enqueue(messages(12));
        queue.nack(claimAll(queue, 12).stream().map(d -> new Failure(d.lease(), "boom")).toList());

        ReliableQueue dead = queue.deadLetters();
        List<Delivery> claimed = claimAll(dead, 12);
        assertThat(claimed).hasSize(12).allSatisfy(d -> assertThat(d.failure()).contains("boom"));
        assertThat(dead.ack(claimed.stream().map(Delivery::lease).toList())).containsOnly(Settled.ACKED);
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void expiredLeasesOfEveryShardAreReaped() {
        ShardedQueue queue = sharded(settings(200, 3, 100));
        queue.enqueue(messages(12));
        claimAll(queue, 12);

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            queue.reap();
            return counts(queue).ready() == 12;
        });
    }

    @Test
    void aClaimerWaitingOnItsHomeShardStillClaimsWhatArrivesOnAnotherShard() {
        ShardedQueue queue = sharded();
        try (Claimer claimer = queue.newClaimer(Claimant.DIRECT)) {
            assertThat(claimer.claim(10, Duration.ofMillis(200))).isEmpty();

            queue.enqueue(messages(9));
            List<Delivery> claimed = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                claimed.addAll(claimer.claim(10, Duration.ofMillis(200)));
                return claimed.size() == 9;
            });
            assertThat(queue.ack(claimed.stream().map(Delivery::lease).toList())).containsOnly(Settled.ACKED);
        }
    }

    @Test
    void aLeaseOfAnUnshardedQueueIsRefusedNamingTheMessage() {
        ShardedQueue queue = sharded();
        assertThatThrownBy(() -> queue.ack(List.of(new Lease("m1", "m1", "1"))))
                .hasMessageContaining("Lease of message 'm1' was not given by a sharded queue");
    }

    @Test
    void aShardCountOutsideTwoTo1024IsRefused() {
        assertThatThrownBy(() -> ShardedQueue.of("orders", 1, i -> queue("orders", settings(1000, 0, 10))))
                .hasMessage("A sharded queue has 2 to 1024 shards, not 1 (queue 'orders')");
        assertThatThrownBy(() -> ShardedQueue.of("orders", 1025, i -> queue("orders", settings(1000, 0, 10))))
                .hasMessageContaining("not 1025");
    }

    @Test
    void aShardNameIsAllowedOnlyAsTheEngineMakesIt() {
        assertThat(QueueNames.keyBase("rr", QueueNames.shard("orders", 7))).isEqualTo("rr:{orders#7}:");
        assertThat(QueueNames.keyBase("rr", QueueNames.shard("orders", 0))).isEqualTo("rr:{orders}:");
        assertThatThrownBy(() -> QueueNames.keyBase("rr", "orders#x")).hasMessageContaining("'#'");
        assertThatThrownBy(() -> QueueNames.validate("orders#1")).hasMessageContaining("'#'");
    }

    /** Claims until {@code count} are claimed: each claim is a batch of one shard. */
    private static List<Delivery> claimAll(ReliableQueue queue, int count) {
        List<Delivery> claimed = new ArrayList<>();
        for (int attempt = 0; attempt < 10 * SHARDS && claimed.size() < count; attempt++) {
            claimed.addAll(queue.claim(count - claimed.size()));
        }
        assertThat(claimed).hasSize(count);
        return claimed;
    }
}
