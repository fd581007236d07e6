package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.ScriptOutputType;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Queue-wide limits across two CamelContexts on one queue: what one JVM's own tools cannot bound. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class QueueLimitsRoutesTest extends CamelRedisTestBase {

    private final List<CamelContext> consumers = new ArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    @AfterEach
    void stopConsumers() {
        consumers.forEach(CamelContext::stop);
    }

    @Test
    void withMaxInflight3AndTenThreadsNeverMoreThanThreeExchangesRunAtOnce() throws Exception {
        for (int i = 0; i < 2; i++) {
            consumers.add(startedContext(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:capped?maxInflight=3&concurrentConsumers=5&maxMessagesPerPoll=10"
                         + "&mode=" + mode)
                            .process(e -> {
                                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                                Thread.sleep(ThreadLocalRandom.current().nextInt(1, 20));
                                running.decrementAndGet();
                                received.add(e);
                            });
                }
            }));
        }

        for (int i = 0; i < 60; i++) {
            send("capped", "m" + i);
        }

        awaitReceived(60);
        awaitStats("capped", 0, 0, 0, 0);
        assertThat(mostAtOnce.get()).as("exchanges at once, of both contexts").isBetween(1, 3);
    }

    /**
     * Judged by the claim times the claim script recorded: in list mode a lease's deadline less the visibility
     * timeout, which no extension moves; in stream mode the pending entry's last delivery.
     */
    @Test
    void withRateLimit20PerSecondNoSecondOfRedisTimeClaimsMoreThan21AndNoDeliveryIsUsedUp() throws Exception {
        List<Long> claimedAt = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 2; i++) {
            consumers.add(startedContext(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:limited?rateLimit=20/1s&concurrentConsumers=5&maxMessagesPerPoll=10"
                         + "&visibilityTimeout=60000&extendVisibility=false&mode=" + mode)
                            .process(e -> {
                                claimedAt.add(claimTime(
                                        e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class)));
                                received.add(e);
                            });
                }
            }));
        }

        for (int i = 0; i < 100; i++) {
            send("limited", "m" + i);
        }

        awaitReceived(100);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .as("being limited uses up no delivery").containsOnly(1);
        List<Long> times = claimedAt.stream().sorted().toList();
        for (long start : times) {
            assertThat(times.stream().filter(t -> t >= start && t < start + 1000).count())
                    .as("claims in the second of Redis time from %d", start).isLessThanOrEqualTo(21);
        }
        assertThat(times.get(99) - times.get(0)).as("99 intervals of 50 ms").isGreaterThanOrEqualTo(4900);
    }

    /** The Redis time the claim script claimed the message at, while its exchange runs. */
    private long claimTime(String id) {
        if (mode.equals("list")) {
            return Math.round(serverOf("limited").zscore(key("limited", "inflight"), id)) - 60_000;
        }
        String entry = serverOf("limited").hget(key("limited", "ids"), id);
        List<Long> nowAndIdle = serverOf("limited").eval("local t = redis.call('TIME') "
                + "local p = redis.call('XPENDING', KEYS[1], 'camel', ARGV[1], ARGV[1], 1)[1] "
                + "return {t[1] * 1000 + math.floor(t[2] / 1000), p[3]}",
                ScriptOutputType.MULTI, new String[] {key("limited", "stream")}, entry);
        return nowAndIdle.get(0) - nowAndIdle.get(1);
    }
}
