package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deadline of the calls that store messages: a script Redis runs after it stores nothing and says DEADLINE; the
 * deadline is a margin before the command timeout on the server clock; a hand-off that timed out while Redis was
 * stopped neither acks nor enqueues when Redis resumes.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class DeadlineTest extends QueueTestBase {

    private static final QueueSettings SETTINGS = settings(60_000, 3, 100);

    private List<byte[]> enqueueKeys() {
        List<String> parts = !streamMode()
                ? List.of("ready", "delayed", "messages", "acked", "wake", "extras", "prioritized", "seq", "groups",
                        "grouped")
                : List.of("stream", "dead", "ids", "acked", "delayed", "delayed-msg");
        return parts.stream().map(part -> bytes(key("orders", part))).toList();
    }

    /** list/enqueue or stream/enqueue called directly with one message and this deadline. */
    private List<Long> enqueueBy(long deadline) {
        List<byte[]> args = new ArrayList<>();
        if (!streamMode()) {
            args.addAll(List.of(bytes(""), bytes("m1"), bytes("0|hello"), bytes("0")));
        } else {
            args.addAll(List.of(bytes("0"), bytes(""), bytes("m1"), bytes("hello"), bytes(""), bytes("0")));
        }
        args.add(bytes(deadline));
        return RedisGateway.await(LuaScript.load(mode + "/enqueue").<List<Long>>run(gateway.asyncCommands(),
                ScriptOutputType.MULTI, enqueueKeys().toArray(byte[][]::new), args.toArray(byte[][]::new))
                .toCompletableFuture());
    }

    private ReliableQueue queueNamed(String name, RedisGateway on) {
        return !streamMode() ? dev.reliableredis.queue.list.ListQueue.of(on, "rr", name, SETTINGS)
                : dev.reliableredis.queue.stream.StreamQueue.of(on, "rr", name, group("g", "c1"), SETTINGS);
    }

    @Test
    void anEnqueueRedisRunsAfterItsDeadlineStoresNothingAndSaysSo() {
        assertThatThrownBy(() -> enqueueBy(now() - 1)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("DEADLINE").hasMessageContaining("nothing was stored");
        assertThat(RedisProcess.keys(raw, "rr:*")).isEmpty();

        assertThat(enqueueBy(now() + 60_000)).as("before its deadline").containsExactly(1L);
        assertThat(counts(queueNamed("orders", gateway))).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void theDeadlineIsAMarginBeforeTheCommandTimeoutOnTheServerClock() {
        long timeout = gateway.commandTimeout().toMillis();
        long before = now();
        long deadline = gateway.deadline(bytes(key("orders", "ready"))).join();
        long after = now();

        // the margin: a tenth of the timeout and the measurement's round trip, together at most half the timeout
        assertThat(deadline).isBetween(before + timeout / 2, after + timeout - timeout / 10);
    }

    @Test
    void aHandOffThatTimedOutWhileRedisWasStoppedNeitherAcksNorEnqueuesWhenItResumes() {
        try (RedisGateway quick = RedisGateway.create(resources, RedisURI.create(redis.uri()),
                Duration.ofMillis(500))) {
            ReliableQueue a = queueNamed("a", quick);
            ReliableQueue b = queueNamed("b", quick);
            a.enqueue(List.of(message("m0", "in"), message("m1", "in")));
            List<Delivery> claimed = a.claim(2);
            // loads the script, so that the held-up hand-off is carried out when Redis resumes, not answered NOSCRIPT
            assertThat(RedisGateway.await(a.handOffAsync(claimed.get(0).lease(), List.of(new HandOff(b,
                    List.of(message(claimed.get(0).messageId() + "/b/0", "out"))))))).isEqualTo(Settled.ACKED);
            Delivery delivery = claimed.get(1);

            redis.pause();
            CompletableFuture<Settled> handOff;
            try {
                handOff = a.handOffAsync(delivery.lease(), List.of(new HandOff(b, List.of(message("m1/b/0", "out")))));
                assertThatThrownBy(() -> RedisGateway.await(handOff)).isInstanceOf(NotStoredException.class)
                        .hasMessageContaining("handoff on queue 'a'").hasMessageContaining("Not stored");
            } finally {
                redis.resume();
            }

            // on the same connection as the held-up hand-off, so Redis has run it once this one is stored
            assertThat(b.enqueue(message("after", "after"))).isTrue();
            assertThat(counts(b)).as("the hand-off before the outage and the enqueue after it")
                    .isEqualTo(new QueueStats(2, 0, 0, 0));
            assertThat(counts(a)).as("the delivery is still in flight").isEqualTo(new QueueStats(0, 1, 0, 0));
        }
    }
}
