package dev.reliableredis.queue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.CommandStats;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class EnqueueScriptTest extends QueueTestBase {

    @Test
    void storesTheMessageAsOneRecordByIdAndMakesTheIdReady() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        long before = now();

        assertThat(q.enqueue(new NewMessage("m1", "hello".getBytes(), Map.of("n", 7L), 0))).isTrue();

        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("m1");
        String[] record = raw.hget(key("orders", "messages"), "m1").split("\\|", 3);
        assertThat(Long.parseLong(record[0])).isBetween(before, now());
        String headers = "{\"n\":[\"Long\",\"7\"]}";
        assertThat(record[1]).isEqualTo(String.valueOf(headers.length()));
        assertThat(record[2]).isEqualTo(headers + "hello");
        assertThat(raw.hexists(key("orders", "leases"), "m1")).as("no delivery state before the first delivery")
                .isFalse();
    }

    /**
     * The layout docs/redis-layout.md gives other programs: five keys, no shard count to check, three arguments per
     * message and no deadline. The call of the release before, without the two empty arguments, is refused.
     */
    @Test
    void anotherProgramsCallWithFiveKeysAndThreeArgumentsPerMessageEnqueues() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        byte[][] keys = java.util.stream.Stream.of("ready", "delayed", "messages", "acked", "wake")
                .map(part -> key("orders", part).getBytes()).toArray(byte[][]::new);

        List<Long> codes = RedisGateway.await(LuaScript.load("list/enqueue").<List<Long>>run(gateway.asyncCommands(),
                ScriptOutputType.MULTI, keys, "".getBytes(), "order-1001".getBytes(), "0|hello".getBytes(),
                "0".getBytes(), "".getBytes()).toCompletableFuture());
        assertThatThrownBy(() -> RedisGateway.await(LuaScript.load("list/enqueue").run(gateway.asyncCommands(),
                ScriptOutputType.MULTI, keys, "order-1002".getBytes(), "0|hello".getBytes(), "0".getBytes())
                .toCompletableFuture())).hasMessageContaining("DEADLINE");

        assertThat(codes).containsExactly(1L);
        assertThat(q.claim(1)).extracting(Delivery::messageId).containsExactly("order-1001");
        assertThat(raw.exists(key("orders", "extras"))).isZero();
    }

    /**
     * Three arguments per message whatever the keys: the options pack the time to live, priority and group id after
     * the delay, and a message that needs a key the call left out is refused, as is the six-argument layout before.
     */
    @Test
    void optionsPackWhatAMessageHasAfterItsDelay() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        List<String> all = List.of("ready", "delayed", "messages", "acked", "wake", "extras", "prioritized", "seq",
                "groups", "grouped");

        assertThat(enqueueRaw(all, "ttl", "0|hello", "0|60000|4|", "urgent", "0|hi", "0|0|9|", "first", "0|a",
                "0|0|4|customer|7")).containsExactly(1L, 1L, 1L);

        assertThat(raw.hget(key("orders", "extras"), "ttl")).matches("\\d+\\|\\|");
        assertThat(raw.hget(key("orders", "extras"), "urgent")).isEqualTo("|9|");
        assertThat(raw.hget(key("orders", "extras"), "first")).as("a group id keeps its '|'").isEqualTo("||customer|7");
        assertThat(q.claim(3)).extracting(Delivery::messageId).containsExactlyInAnyOrder("urgent", "ttl", "first");
        assertThatThrownBy(() -> enqueueRaw(all.subList(0, 5), "late", "0|x", "0|60000|4|"))
                .hasMessageContaining("message late has a time to live, whose keys this call did not pass");
        assertThatThrownBy(() -> enqueueRaw(all, "old", "0|x", "0", "0", "4", ""))
                .hasMessageContaining("the options of message 0 are '', not 'delay' or 'delay|ttl|level|group id'");
        assertThatThrownBy(() -> enqueueRaw(all, "bad", "0|x", "0|0|10|"))
                .hasMessageContaining("the priority of message bad is '10', not 0 to 9");
        assertThat(raw.hexists(key("orders", "messages"), "late")).isFalse();
    }

    private List<Long> enqueueRaw(List<String> parts, String... args) {
        byte[][] keys = parts.stream().map(part -> key("orders", part).getBytes()).toArray(byte[][]::new);
        // no shard count to check before the messages, no deadline after them
        byte[][] values = Stream.of(Stream.of(""), Arrays.stream(args), Stream.of("")).flatMap(part -> part)
                .map(String::getBytes).toArray(byte[][]::new);
        return RedisGateway.await(LuaScript.load("list/enqueue").<List<Long>>run(gateway.asyncCommands(),
                ScriptOutputType.MULTI, keys, values).toCompletableFuture());
    }

    @Test
    void isANoOpWhileTheIdIsQueuedDelayedInFlightOrDead() {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        assertThat(q.enqueue(message("queued", "a"))).isTrue();
        assertThat(q.enqueue(message("queued", "b"))).isFalse();
        assertThat(raw.hget(key("orders", "messages"), "queued")).endsWith("|0|a");

        assertThat(q.enqueue(new NewMessage("delayed", "a".getBytes(), null, 60_000))).isTrue();
        assertThat(q.enqueue(message("delayed", "b"))).isFalse();

        q.purge();
        q.enqueue(message("inflight", "a"));
        Delivery d = q.claim(1).get(0);
        assertThat(q.enqueue(message("inflight", "b"))).isFalse();

        q.nack(List.of(new Failure(d.lease(), "boom")));
        assertThat(q.stats().dead()).isEqualTo(1);
        assertThat(q.enqueue(message("inflight", "c"))).isFalse();
        assertThat(q.stats().ready()).isZero();
    }

    @Test
    void isANoOpForAnIdAckedWithinTheWindowAndStoresItAfterwards() {
        QueueSettings shortWindow = QueueSettings.builder().maxRetryDelay(Duration.ofSeconds(10))
                .idempotencyWindow(Duration.ofMillis(300)).build();
        ListQueue q = queue("orders", shortWindow);
        q.enqueue(message("m1", "a"));
        q.ack(List.of(q.claim(1).get(0).lease()));
        long acked = now();

        assertThat(q.enqueue(message("m1", "again"))).isFalse();
        assertThat(raw.zscore(key("orders", "acked"), "m1")).isCloseTo(acked + 300, within(50.0));

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> now() > acked + 350);
        assertThat(q.enqueue(message("m1", "again"))).isTrue();
        assertThat(raw.zscore(key("orders", "acked"), "m1")).isNull();
    }

    @Test
    void withAZeroWindowAnAckedIdIsForgottenAtOnce() {
        QueueSettings noWindow = QueueSettings.builder().maxRetryDelay(Duration.ofSeconds(10))
                .idempotencyWindow(Duration.ZERO).build();
        ListQueue q = queue("orders", noWindow);
        q.enqueue(message("m1", "a"));
        q.ack(List.of(q.claim(1).get(0).lease()));

        assertThat(raw.exists(key("orders", "acked"))).isZero();
        assertThat(q.enqueue(message("m1", "again"))).isTrue();
    }

    @Test
    void aDelayedMessageWaitsInTheDelayedSetUntilItsServerTime() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        long before = now();
        q.enqueue(new NewMessage("later", "x".getBytes(), null, 5_000));

        assertThat(raw.llen(key("orders", "ready"))).isZero();
        assertThat(raw.zscore(key("orders", "delayed"), "later")).isBetween(before + 5_000.0, now() + 5_000.0);
        assertThat(q.claim(10)).isEmpty();
    }

    @Test
    void aBatchIsOneScriptCallWithOneResultPerMessageInOrder() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        assertABatchIsOneScriptCallWithOneResultPerMessage(q);
        assertThat(raw.lrange(key("orders", "ready"), 0, -1)).containsExactly("known", "m1", "m2");
        assertThat(raw.zrange(key("orders", "delayed"), 0, -1)).containsExactly("later");
        assertThat(q.claim(10)).extracting(d -> new String(d.body())).containsExactly("a", "x", "w");
    }

    /** Whether each id is known is read in one command per call, whatever the call's size. */
    @Test
    void aBatchLooksItsIdsUpInOneReadOfTheRecords() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        assertThat(q.enqueue(new NewMessage("known", "a".getBytes(), null, 0))).isTrue();
        raw.configResetstat();

        List<NewMessage> batch = IntStream.range(0, 20)
                .mapToObj(i -> new NewMessage(i == 7 ? "known" : "m" + i, "x".getBytes(), null, 0)).toList();
        assertThat(q.enqueue(batch)).containsOnlyOnce(false);

        assertThat(CommandStats.of(raw, "hexists", "calls")).isZero();
        assertThat(CommandStats.of(raw, "hmget", "calls")).isEqualTo(1);
    }
}
