package dev.reliableredis.queue.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server clock estimates, measured with a real Redis {@code TIME}: a prompt measurement is kept; one whose reply
 * came late, as over a slow network or from a paused Redis, is used by the call that waited for it and then measured
 * again, since its error (up to half its round trip) is more than a deadline's margin allows for.
 */
class ServerClockTest {

    private static final Duration TIMEOUT = Duration.ofMillis(1000);

    static RedisProcess redis;
    static RedisClient client;
    static StatefulRedisConnection<byte[], byte[]> connection;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
        client = RedisClient.create(redis.uri());
        connection = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stopRedis() {
        connection.close();
        client.shutdown();
        redis.close();
    }

    /** Redis TIME, its reply handed on after {@code lateBy} ms; counts the measurements. */
    private static Supplier<CompletionStage<List<byte[]>>> time(AtomicInteger measurements, long lateBy) {
        return () -> {
            measurements.incrementAndGet();
            return connection.async().time().toCompletableFuture()
                    .thenApplyAsync(reply -> reply, CompletableFuture.delayedExecutor(lateBy, TimeUnit.MILLISECONDS));
        };
    }

    @Test
    void aPromptMeasurementServesTheCallsAfterIt() {
        ServerClock clock = new ServerClock(TIMEOUT);
        AtomicInteger measurements = new AtomicInteger();

        clock.deadline("node", time(measurements, 0)).join();
        clock.deadline("node", time(measurements, 0)).join();

        assertThat(measurements).hasValue(1);
    }

    @Test
    void aMeasurementAnsweredLateServesItsCallAndTheNextCallMeasuresAgain() {
        ServerClock clock = new ServerClock(TIMEOUT);
        AtomicInteger measurements = new AtomicInteger();

        clock.deadline("node", time(measurements, TIMEOUT.toMillis() / 5)).join();
        clock.deadline("node", time(measurements, 0)).join();
        clock.deadline("node", time(measurements, 0)).join();

        assertThat(measurements).as("the late one, then one prompt one kept").hasValue(2);
    }
}
