package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * On a Redis at its maxmemory with noeviction (the setting the docs recommend), enqueues are refused, and every
 * settlement and housekeeping script still runs: a full Redis must not cost running exchanges their leases, nor
 * stop the acks and reaps that free memory. Before each call maxmemory is set just below the memory in use.
 */
@ParameterizedClass(name = "Redis {0}")
@ValueSource(strings = {"7.0", "6.2"})
class FullRedisTest {

    /** The order of the writes, not a script flag, lets the scripts run: it works on 6.2 as well. */
    @Parameter
    String version;

    private RedisProcess redis;
    private ClientResources resources;
    private RedisGateway gateway;
    private RedisCommands<String, String> raw;

    @BeforeEach
    void start() {
        redis = "6.2".equals(version) ? RedisProcess.startRedis62("--maxmemory-policy", "noeviction")
                : RedisProcess.start("--maxmemory-policy", "noeviction");
        raw = redis.commands();
        resources = RedisGateway.newClientResources();
        gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        gateway.close();
        resources.shutdown();
        redis.close();
    }

    @Test
    void listModeSettlesAndKeepsHouseOnAFullRedis() {
        runsOnAFullRedis((settings, consumer) -> ListQueue.of(gateway, "rr", "q", settings));
    }

    @Test
    void streamModeSettlesAndKeepsHouseOnAFullRedis() {
        runsOnAFullRedis((settings, consumer) -> StreamQueue.of(gateway, "rr", "q",
                new StreamOptions(null, null, "g", "0", consumer, 0, true), settings));
    }

    /** Each queue object has its settings and, in stream mode, its consumer name. */
    private void runsOnAFullRedis(BiFunction<QueueSettings, String, ReliableQueue> queueWith) {
        ReliableQueue retrying = queueWith.apply(settings(30_000, 3), "c1");
        ReliableQueue deadLettering = queueWith.apply(settings(30_000, 0), "c1");
        ReliableQueue shortLeases = queueWith.apply(settings(300, 3), "c2");
        for (int i = 1; i <= 6; i++) {
            retrying.enqueue(new NewMessage("m" + i, "x".getBytes(), null, 0));
        }
        retrying.enqueue(new NewMessage("later", "x".getBytes(), null, 1));
        // creating a consumer group needs memory: the dead letters' group is created before Redis is full
        assertThat(retrying.deadLetters().claim(1)).isEmpty();
        Delivery expiring = shortLeases.claim(1).get(0);
        await("the short lease expires").atMost(Duration.ofSeconds(5)).until(() -> leaseOver(expiring));
        List<Delivery> d = retrying.claim(5);

        fill();
        ReapResult reaped = shortLeases.reap();
        assertThat(reaped.expiredReturned()).isEqualTo(1);
        assertThat(reaped.delayedReleased()).isEqualTo(1);
        fill();
        assertThatThrownBy(() -> retrying.enqueue(new NewMessage("refused", "x".getBytes(), null, 0)))
                .isInstanceOf(QueueException.class).hasMessageContaining("OOM");
        fill();
        assertThat(retrying.extend(List.of(d.get(0).lease()))).containsExactly(Settled.EXTENDED);
        fill();
        assertThat(retrying.nack(List.of(new Failure(d.get(1).lease(), "retry")))).containsExactly(Settled.RETRY_SCHEDULED);
        fill();
        assertThat(deadLettering.nack(List.of(new Failure(d.get(2).lease(), "dead"))))
                .containsExactly(Settled.DEAD_LETTERED);
        fill();
        assertThat(retrying.release(List.of(d.get(3).lease()))).isEqualTo(1);
        fill();
        assertThat(retrying.claim(10)).isNotEmpty();
        fill();
        assertThat(retrying.ack(List.of(d.get(4).lease()))).containsExactly(Settled.ACKED);
        fill();
        assertThat(retrying.deadLetters().claim(1)).hasSize(1);
    }

    private boolean leaseOver(Delivery delivery) {
        if (raw.type("rr:{q}:stream").equals("stream")) {
            var pending = raw.xpending("rr:{q}:stream", "g", io.lettuce.core.Range.create("-", "+"),
                    io.lettuce.core.Limit.from(10));
            return pending.stream().anyMatch(p -> p.getId().equals(delivery.lease().ref())
                                                  && p.getMsSinceLastDelivery() > 300);
        }
        var time = raw.time();
        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        return raw.zscore("rr:{q}:inflight", delivery.lease().ref()) < now;
    }

    /** Puts Redis over its maxmemory: the limit goes just below what it uses now. */
    private void fill() {
        long used = Long.parseLong(raw.info("memory").replaceAll("(?s).*used_memory:(\\d+).*", "$1"));
        raw.configSet("maxmemory", Long.toString(used - 64 * 1024));
    }

    private static QueueSettings settings(long visibilityMs, int maxRetries) {
        return QueueSettings.builder().visibilityTimeout(Duration.ofMillis(visibilityMs)).maxRetries(maxRetries)
                .retryDelay(Duration.ZERO).maxRetryDelay(Duration.ZERO).idempotencyWindow(Duration.ofMillis(1)).build();
    }
}
