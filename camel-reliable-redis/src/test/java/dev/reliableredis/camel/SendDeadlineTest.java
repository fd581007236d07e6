package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.reliableredis.queue.NotStoredException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeTimedOutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A send that timed out while Redis was paused (SIGSTOP) or busy (DEBUG SLEEP) does not land when Redis catches up:
 * Redis runs the held-up script after its deadline, which stores nothing, and the exchange's exception says that
 * the message was not stored. As the issue found it: 16 sends at once, on a queue of one shard and of three; and a
 * request.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
@RedisUnderTest(arguments = {"--enable-debug-command", "local"})
class SendDeadlineTest extends CamelRedisTestBase {

    private static final int SENDS = 16;
    private static final long COMMAND_TIMEOUT_MS = 1000;

    @Test
    void sendsThatTimedOutWhileRedisWasStoppedAreNotStoredWhenItResumes() throws Exception {
        assertTimedOutSendsAreNotStored(1, this::stopped);
    }

    @Test
    void sendsToAShardedQueueThatTimedOutWhileRedisWasStoppedAreNotStoredWhenItResumes() throws Exception {
        assertTimedOutSendsAreNotStored(3, this::stopped);
    }

    @Test
    void sendsThatTimedOutWhileRedisSleptAreNotStoredWhenItWakes() throws Exception {
        assertTimedOutSendsAreNotStored(1, this::asleep);
    }

    @Test
    void sendsToAShardedQueueThatTimedOutWhileRedisSleptAreNotStoredWhenItWakes() throws Exception {
        assertTimedOutSendsAreNotStored(3, this::asleep);
    }

    @Test
    void aRequestThatTimedOutWhileRedisWasStoppedIsNotStoredWhenItResumes() {
        String uri = "reliable-redis:q?mode=" + mode + "&commandTimeout=" + COMMAND_TIMEOUT_MS
                     + "&requestReply=true&requestTimeout=500";
        // stored, and unanswered: no route consumes q
        assertThat(template.send(uri, e -> e.getMessage().setBody("before")).getException())
                .isInstanceOf(ExchangeTimedOutException.class);

        stopped(() -> assertThat(template.send(uri, e -> e.getMessage().setBody("during")).getException())
                .isInstanceOf(NotStoredException.class).hasMessageContaining("Not stored"));

        assertThat(template.send(uri, e -> e.getMessage().setBody("after")).getException())
                .isInstanceOf(ExchangeTimedOutException.class);
        @SuppressWarnings("unchecked")
        Map<String, Long> stats = template.requestBodyAndHeader(uri, null, ReliableRedisConstants.OPERATION, "stats",
                Map.class);
        assertThat(stats).as("only the requests before and after the outage are stored").containsEntry("ready", 2L);
    }

    /** Holds Redis still while the sends run. */
    private interface Outage {
        void during(Runnable sends) throws Exception;
    }

    private void assertTimedOutSendsAreNotStored(int shards, Outage outage) throws Exception {
        String uri = "reliable-redis:q?mode=" + mode + "&shards=" + shards + "&commandTimeout=" + COMMAND_TIMEOUT_MS;
        // connects, and measures the server clock, so that the sends below go out with deadlines at once
        assertThat(template.send(uri, e -> e.getMessage().setBody("before")).getException()).isNull();

        List<CompletableFuture<Exchange>> sends = new ArrayList<>();
        outage.during(() -> {
            IntStream.range(0, SENDS).forEach(i -> sends.add(template.asyncSend(uri,
                    e -> e.getMessage().setBody("during " + i))));
            for (CompletableFuture<Exchange> send : sends) {
                Exchange failed = send.orTimeout(10, TimeUnit.SECONDS).join();
                assertThat(failed.getException()).as("the exchange's exception").isInstanceOf(NotStoredException.class)
                        .hasMessageContaining("queue 'q").hasMessageContaining("Not stored");
            }
        });

        // on the same connection as the held-up sends, so Redis has run them all once this one is stored
        assertThat(template.send(uri, e -> e.getMessage().setBody("after")).getException()).isNull();
        @SuppressWarnings("unchecked")
        Map<String, Long> stats = template.requestBodyAndHeader(uri, null, ReliableRedisConstants.OPERATION, "stats",
                Map.class);
        assertThat(stats).as("only the sends before and after the outage are stored").containsEntry("ready", 2L);
    }

    /** SIGSTOP for as long as the sends take to fail. */
    private void stopped(Runnable sends) {
        redis.pause();
        try {
            sends.run();
        } finally {
            redis.resume();
        }
    }

    /** DEBUG SLEEP, begun before the sends and lasting past their timeout. */
    private void asleep(Runnable sends) {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> sleeper = client.connect();
                StatefulRedisConnection<String, String> probe = client.connect()) {
            sleeper.setTimeout(Duration.ofSeconds(30));
            probe.setTimeout(Duration.ofMillis(100));
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(
                    Double.toString(COMMAND_TIMEOUT_MS * 2.5 / 1000));
            var sleep = sleeper.async().dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8), args);
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                try {
                    probe.sync().ping();
                    return false;
                } catch (RedisCommandTimeoutException asleep) {
                    return true;
                }
            });
            sends.run();
            assertThat(sleep.toCompletableFuture().join()).isEqualTo("OK");
        } finally {
            client.shutdown();
        }
    }
}
