package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What only stream mode does: attach to streams other programs write, dead-letter streams, groups. */
class StreamModeTest extends CamelRedisTestBase {

    StreamModeTest() {
        mode = "stream";
    }

    /** The streams these tests name with streamKey and deadLetterKey are outside the key prefix: grants them. */
    @BeforeEach
    void grantTheStreamsOutsideTheKeyPrefix() {
        if (LeastPrivilegeUser.enabled()) {
            LeastPrivilegeUser.grantKeys(raw, "order_stream", "order_dlq", "new_stream", "old_stream", "fast_stream");
        }
    }

    @Test
    void aRouteConsumesWhatAPlainXaddWroteAndDeadLettersItAfterFourFailures() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream&streamKey=order_stream&group=order_group"
                     + "&deadLetterKey=order_dlq&maxRetries=3&retryDelay=20&maxRetryDelay=20&reaperInterval=50")
                        .process(e -> {
                            received.add(e);
                            throw new IllegalStateException("cannot process order "
                                                            + e.getMessage().getBody(Map.class).get("order_id"));
                        });
            }
        });
        String entry = raw.xadd("order_stream", Map.of("order_id", "7", "amount", "12"));

        await().atMost(Duration.ofSeconds(15)).until(() -> raw.xlen("order_dlq") == 1);
        List<StreamMessage<String, String>> dead = raw.xrange("order_dlq", Range.create("-", "+"));
        assertThat(dead.get(0).getBody()).containsEntry("origin_id", entry).containsEntry("deliveries", "4")
                .containsEntry("failure", "java.lang.IllegalStateException: cannot process order 7")
                .containsKey("content");
        assertThat(dead.get(0).getBody().get("content")).contains("\"order_id\":\"7\"").contains("\"amount\":\"12\"");
        assertThat(raw.xpending("order_stream", "order_group").getCount()).isZero();
        assertThat(received).hasSize(4);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsOnly(entry);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsExactly(1, 2, 3, 4);
    }

    @Test
    void aForeignEntryIsAckedAndDeletedWhenTheRouteCompletes() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream&streamKey=order_stream&group=order_group")
                        .process(received::add);
            }
        });
        raw.xadd("order_stream", Map.of("order_id", "8"));

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(Map.class)).isEqualTo(Map.of("order_id", "8"));
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.xlen("order_stream") == 0);
    }

    @Test
    void aGroupIsCreatedOnAMissingStreamAndStartsWhereGroupStartIdSays() throws Exception {
        raw.xadd("old_stream", Map.of("n", "before"));
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:fresh?mode=stream&streamKey=new_stream&group=g").process(received::add);
                from("reliable-redis:old?mode=stream&streamKey=old_stream&group=g&groupStartId=$")
                        .process(received::add);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists("new_stream") == 1
                                                          && !raw.xinfoGroups("old_stream").isEmpty());
        raw.xadd("new_stream", Map.of("n", "1"));
        raw.xadd("old_stream", Map.of("n", "after"));

        awaitReceived(2);
        assertThat(received).extracting(e -> e.getMessage().getBody(Map.class).get("n"))
                .containsExactlyInAnyOrder("1", "after");
    }

    @Test
    void everyGroupOfAStreamGetsEveryMessage() throws Exception {
        Set<String> billing = ConcurrentHashMap.newKeySet();
        Set<String> shipping = ConcurrentHashMap.newKeySet();
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream&group=billing")
                        .process(e -> billing.add(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class)));
                from("reliable-redis:orders?mode=stream&group=shipping&concurrentConsumers=2")
                        .process(e -> shipping.add(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class)));
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists(key("orders", "stream")) == 1
                                                          && raw.xinfoGroups(key("orders", "stream")).size() == 2);
        for (int i = 0; i < 20; i++) {
            send("orders", "order " + i);
        }

        await().atMost(Duration.ofSeconds(15)).until(() -> billing.size() == 20 && shipping.size() == 20);
        assertThat(billing).isEqualTo(shipping);
        await("every entry deleted once both groups acked").atMost(Duration.ofSeconds(5))
                .until(() -> raw.xlen(key("orders", "stream")) == 0);
    }

    @Test
    void statsReportTheOldestPendingAge() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream").process(e -> {
                    received.add(e);
                    await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
                });
            }
        });
        send("orders", "slow");
        awaitReceived(1);
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);

        @SuppressWarnings("unchecked")
        Map<String, Long> stats = template.requestBodyAndHeader("reliable-redis:orders?mode=stream", null,
                ReliableRedisConstants.OPERATION, "stats", Map.class);
        received.add(received.get(0));

        assertThat(stats).containsEntry("inflight", 1L).containsEntry("ready", 0L);
        assertThat(stats.get("oldestPendingAge")).isBetween(300L, 10_000L);
    }

    @Test
    void aStoppedConsumerWithNothingPendingLeavesItsGroup() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream&consumerName=short-lived").routeId("short")
                        .process(received::add);
            }
        });
        send("orders", "x");
        awaitReceived(1);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> raw.xinfoConsumers(key("orders", "stream"), "camel").size() == 1);

        context.getRouteController().stopRoute("short");

        assertThat(raw.xinfoConsumers(key("orders", "stream"), "camel")).isEmpty();
    }

    @Test
    void aShortCommandTimeoutDoesNotCutTheBlockingReadShort() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:fast?mode=stream&commandTimeout=400&streamKey=fast_stream").process(received::add);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists("fast_stream") == 1);
        for (int i = 0; i < 5; i++) {
            await().pollDelay(Duration.ofMillis(300)).until(() -> true);
            raw.xadd("fast_stream", Map.of("n", String.valueOf(i)));
        }

        awaitReceived(5);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsOnly(1);
    }
}
