package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Consumers in JVMs of their own, killed for real. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ConsumerCrashTest extends CamelRedisTestBase {

    @Test
    void messagesOfAConsumerKilledMidProcessingAreRedeliveredToAnotherWithDeliveryCountTwo() throws Exception {
        String endpoint = "reliable-redis:crash?mode=" + mode + "&visibilityTimeout=1500&concurrentConsumers=3&reaperInterval=100";
        List<String> ids = List.of(send("crash", "a"), send("crash", "b"), send("crash", "c"));
        ConsumerJvm victim = ConsumerJvm.start(redisUri(), endpoint, "hang");
        try {
            // its threads claim the three in batches of their share, and each thread holds its own batch
            await("the victim holds all three").atMost(Duration.ofSeconds(30))
                    .until(() -> !victim.processed().isEmpty() && stats("crash").get("inflight") == 3L);
        } finally {
            victim.kill();
        }

        routes(new RouteBuilder() {
            public void configure() {
                from(endpoint).process(received::add);
            }
        });

        awaitReceived(3);
        awaitStats("crash", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsOnly(2);
    }

    @Test
    void aMessageThatKillsItsConsumerEveryTimeEndsInTheDeadLetters() throws Exception {
        String endpoint = "reliable-redis:poison?mode=" + mode + "&visibilityTimeout=1000&maxRetries=1&reaperInterval=100";
        String id = send("poison", "kills every consumer");
        ClientResources resources = RedisGateway.newClientResources();
        try (RedisGateway gateway = gateway(resources)) {
            QueueSettings settings = QueueSettings.builder().visibilityTimeout(Duration.ofMillis(1000)).maxRetries(1)
                    .idempotencyWindow(Duration.ofDays(1)).build();
            ReliableQueue queue = streamMode()
                    ? StreamQueue.of(gateway, "rr", "poison",
                            new StreamOptions(null, null, "camel", "0", "test-reaper", 0, true), settings)
                    : ListQueue.of(gateway, "rr", "poison", settings);
            for (int delivery = 1; delivery <= 2; delivery++) {
                ConsumerJvm consumer = ConsumerJvm.start(redisUri(), endpoint, "halt");
                if (!consumer.process().waitFor(60, TimeUnit.SECONDS)) {
                    consumer.kill();
                    throw new AssertionError("delivery " + delivery + " never reached the consumer; Redis: "
                                             + redisState() + "; consumer output:\n" + consumer.output());
                }
                assertThat(consumer.process().exitValue()).as(consumer.output()).isEqualTo(137);
                assertThat(consumer.processed()).containsExactly("PROCESSING " + id + " " + delivery);
                await("the lease expires").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                        .until(() -> queue.reap().total() > 0 && queue.stats().inflight() == 0);
            }
        } finally {
            resources.shutdown();
        }

        assertThat(stats("poison")).isEqualTo(java.util.Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 1L));
        assertThat(failureOf("poison", id)).isEqualTo("lease expired");
    }

    @Test
    void aPoisonMessageInABatchOfTenIsDeadLetteredAfterItsOwnDeliveryAndItsBatchMatesNeverAreWithMaxRetriesZero()
            throws Exception {
        String endpoint = "reliable-redis:batch?mode=" + mode + "&visibilityTimeout=1000&maxRetries=0"
                          + "&maxMessagesPerPoll=10&reaperInterval=100";
        List<String> ids = java.util.stream.IntStream.range(0, 10).mapToObj(i -> send("batch", "m" + i)).toList();
        String poison = ids.get(5);

        ConsumerJvm first = runUntilItHalts(endpoint, poison);
        assertThat(first.batches()).as("one batch of ten, up to the poison").hasSize(6)
                .allSatisfy(line -> assertThat(line).endsWith(" 10"));
        assertThat(first.processed()).contains("PROCESSING " + poison + " 1");

        ConsumerJvm second = runUntilItHalts(endpoint, poison);
        assertThat(second.batches()).as("what the crashed batch left comes back, each claimed alone").isNotEmpty()
                .allSatisfy(line -> assertThat(line).endsWith(" 0 1"));
        assertThat(second.processed()).as("its crashed batch counted a delivery, but not a failed one")
                .contains("PROCESSING " + poison + " 2");

        routes(new RouteBuilder() {
            public void configure() {
                from(endpoint).process(received::add);
            }
        });
        awaitStats("batch", 0, 0, 0, 1);
        assertThat(failureOf("batch", poison)).as("dead after its one delivery held alone").isEqualTo("lease expired");
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .doesNotContain(poison).doesNotHaveDuplicates();
    }

    /** Runs a consumer JVM that halts on the poison message, until it does. */
    private static ConsumerJvm runUntilItHalts(String endpoint, String poison) throws InterruptedException {
        ConsumerJvm consumer = ConsumerJvm.start(redisUri(), endpoint, "halt-on:" + poison);
        if (!consumer.process().waitFor(60, TimeUnit.SECONDS)) {
            consumer.kill();
            throw new AssertionError("the poison never reached the consumer; its output:\n" + consumer.output());
        }
        assertThat(consumer.process().exitValue()).as(consumer.output()).isEqualTo(137);
        return consumer;
    }

    /** What Redis holds of the poison queue, for the message of a failure. */
    private String redisState() {
        if (!streamMode()) {
            return "ready " + raw.lrange(key("poison", "ready"), 0, -1) + ", inflight "
                   + raw.zrangeWithScores(key("poison", "inflight"), 0, -1) + ", delayed "
                   + raw.zrangeWithScores(key("poison", "delayed"), 0, -1) + ", leases " + raw.hgetall(key("poison", "leases"));
        }
        return "stream " + raw.xrange(key("poison", "stream"), io.lettuce.core.Range.create("-", "+")) + ", pending "
               + raw.xpending(key("poison", "stream"), "camel", io.lettuce.core.Range.create("-", "+"),
                       io.lettuce.core.Limit.from(10))
               + ", retry " + raw.zrangeWithScores("rr:{poison}:group:camel:retry", 0, -1) + ", groups "
               + raw.xinfoGroups(key("poison", "stream")) + ", consumers "
               + raw.xinfoConsumers(key("poison", "stream"), "camel");
    }
}
