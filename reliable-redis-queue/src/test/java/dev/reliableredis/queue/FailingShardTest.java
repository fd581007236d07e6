package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.IntStream;

import dev.reliableredis.queue.batch.RequestBatcher;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.runtime.LeaseKeeper;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.sharded.ShardedQueue;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A queue over three shards of which shard 1 fails every call, in both modes: the queue is used as a Redis user whose
 * ACL leaves out shard 1's keys, so Redis refuses every call to that shard at once while it serves the others. What
 * fails is only what is on shard 1.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class FailingShardTest extends QueueTestBase {

    private static final int SHARDS = 3;
    private static final String USER = "no-shard-1";

    /** The queue as the default user: every shard works. */
    private ShardedQueue whole;
    /** The same queue as the user who may not touch shard 1. */
    private ShardedQueue failingShard1;
    private RedisGateway restricted;

    @BeforeEach
    void restrictedUser() {
        raw.aclSetuser(USER, AclSetuserArgs.Builder.reset().on().addPassword("pw").keyPattern("rr:{orders}:*")
                .keyPattern("rr:{orders#2}:*").allChannels().allCommands());
        raw.aclLogReset();
        RedisURI uri = RedisURI.create(redis.uri());
        uri.setCredentialsProvider(new StaticCredentialsProvider(USER, "pw".toCharArray()));
        restricted = RedisGateway.create(resources, uri, Duration.ofSeconds(5));
        whole = sharded(gateway);
        failingShard1 = sharded(restricted);
    }

    @AfterEach
    void closeRestricted() {
        restricted.close();
    }

    private ShardedQueue sharded(RedisGateway on) {
        return shardedOfMode(on, "orders", SHARDS, settings(30_000, 3, 100));
    }

    /** Messages with a shard key that puts message i on shard i % 3. */
    private static List<NewMessage> messages(int count) {
        return IntStream.range(0, count).mapToObj(i -> new NewMessage("m" + i, ("body " + i).getBytes(), null, 0,
                keyFor(i % SHARDS))).toList();
    }

    private static String keyFor(int shard) {
        return IntStream.range(0, 1000).mapToObj(i -> "key" + i)
                .filter(key -> ShardPicker.shardOf(key, SHARDS) == shard)
                .findFirst().orElseThrow();
    }

    private static int shardOf(Delivery delivery) {
        return Integer.parseInt(delivery.lease().ref().split("#")[0]);
    }

    /** Claims every message through the whole queue. */
    private List<Delivery> claimAll(int count) {
        List<Delivery> claimed = new ArrayList<>();
        for (int attempt = 0; attempt < 10 * SHARDS && claimed.size() < count; attempt++) {
            claimed.addAll(whole.claim(count - claimed.size()));
        }
        assertThat(claimed).hasSize(count);
        return claimed;
    }

    /** Holds Redis for a moment, so that requests submitted meanwhile wait for the call before them and go together. */
    private void pauseRedisBriefly() {
        raw.clientPause(200);
    }

    @Test
    void sendsMergedWhileACallWasUnderWayFailOnlyWhereTheirShardFailed() {
        RequestBatcher<NewMessage, Boolean> sends = failingShard1.enqueueBatcher(call -> call, 500);
        List<NewMessage> messages = messages(30);
        pauseRedisBriefly();
        List<CompletableFuture<Boolean>> sent = messages.stream().map(sends::submit).toList();

        for (int i = 0; i < messages.size(); i++) {
            CompletableFuture<Boolean> one = sent.get(i);
            if (i % SHARDS == 1) {
                assertThatThrownBy(one::join).as("message %d, on shard 1", i).hasMessageContaining("NOPERM");
            } else {
                assertThat(one.join()).as("message %d", i).isTrue();
            }
        }
        assertThat(counts(whole.shards().get(0)).ready()).isEqualTo(10);
        assertThat(counts(whole.shards().get(1)).ready()).isZero();
        assertThat(counts(whole.shards().get(2)).ready()).isEqualTo(10);
    }

    @Test
    void oneSubmissionWithAMessageOnTheFailingShardFailsAndItsOtherMessagesAreStored() {
        RequestBatcher<NewMessage, Boolean> sends = failingShard1.enqueueBatcher(call -> call, 500);

        assertThatThrownBy(() -> sends.submitAll(messages(3)).join()).hasMessageContaining("NOPERM");
        assertThat(counts(whole).ready()).as("messages 0 and 2, whose shards answered").isEqualTo(2);
    }

    @Test
    void acksMergedWhileACallWasUnderWayLandWhereTheirShardAnswered() {
        assertSettledWhereTheirShardAnswered(30, failingShard1.ackBatcher(call -> call, 500), Delivery::lease,
                Settled.ACKED);
        assertThat(counts(whole)).isEqualTo(new QueueStats(0, 10, 0, 0));
    }

    @Test
    void nacksOfTheShardsThatAnswerLand() {
        assertSettledWhereTheirShardAnswered(9, failingShard1.nackBatcher(call -> call, 500),
                d -> new Failure(d.lease(), "boom"), Settled.RETRY_SCHEDULED);
        assertThat(counts(whole)).isEqualTo(new QueueStats(0, 3, 6, 0));
    }

    /**
     * Enqueues and claims {@code count} messages, and settles each with its request through the batcher (of the queue
     * whose shard 1 fails) while Redis is held, so that the requests merge: the settlement of each delivery on shard 1
     * fails, every other one has the expected result.
     */
    private <T> void assertSettledWhereTheirShardAnswered(int count, RequestBatcher<T, Settled> batcher,
            Function<Delivery, T> request, Settled expected) {
        whole.enqueue(messages(count));
        List<Delivery> claimed = claimAll(count);
        pauseRedisBriefly();
        List<CompletableFuture<Settled>> results = claimed.stream().map(d -> batcher.submit(request.apply(d))).toList();

        for (int i = 0; i < claimed.size(); i++) {
            if (shardOf(claimed.get(i)) == 1) {
                assertThatThrownBy(results.get(i)::join).hasMessageContaining("NOPERM");
            } else {
                assertThat(results.get(i).join()).isEqualTo(expected);
            }
        }
    }

    @Test
    void anExtensionExtendsEveryShardThatAnswersAndKeepsTheFailingShardsLeasesHeld() {
        whole.enqueue(messages(30));
        List<Delivery> claimed = claimAll(30);
        LeaseKeeper keeper = new LeaseKeeper(failingShard1);
        claimed.forEach(d -> keeper.hold(d.lease()));

        LeaseKeeper.Extension extension = keeper.extendAll();

        assertThat(extension.extended()).as("the leases of shards 0 and 2").isEqualTo(20);
        assertThat(extension.lost()).isEmpty();
        assertThat(extension.failure()).isInstanceOf(PartialFailure.class).hasMessageContaining("NOPERM");
        assertThat(keeper.size()).as("every lease still held").isEqualTo(30);
        List<Settled> results = ((PartialFailure) extension.failure()).results();
        assertThat(results).containsOnly(Settled.EXTENDED, null);
    }

    @Test
    void claimsPassOverTheFailingShardAndTryItAgainOnlyNowAndThen() {
        whole.enqueue(messages(300));

        int claims = 0;
        List<Delivery> claimed = new ArrayList<>();
        while (claimed.size() < 200 && claims < 1000) {
            claimed.addAll(failingShard1.claim(Claimant.DIRECT, 1));
            claims++;
        }

        assertThat(claimed).hasSize(200).allSatisfy(d -> assertThat(shardOf(d)).isNotEqualTo(1));
        // one claim in three starts at shard 1; passed over, it is tried again with backoff, a few times a second
        assertThat(refusedCalls()).as("calls to shard 1 in %d claims", claims).isPositive().isLessThan(claims / 6);
    }

    @Test
    void anInterruptedClaimSendsNoShardAClaim() {
        whole.enqueue(messages(9));
        Thread.currentThread().interrupt();
        try {
            assertThat(whole.claim(Claimant.DIRECT, 3)).isEmpty();
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        }
        assertThat(counts(whole)).isEqualTo(new QueueStats(9, 0, 0, 0));
    }

    /** How many calls Redis refused the restricted user, from the ACL log (repeated refusals are counted in one entry). */
    private long refusedCalls() {
        return raw.aclLog().stream().filter(entry -> USER.equals(String.valueOf(entry.get("username"))))
                .mapToLong(entry -> ((Number) entry.get("count")).longValue()).sum();
    }
}
