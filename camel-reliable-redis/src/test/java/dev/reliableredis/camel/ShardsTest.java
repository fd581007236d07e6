package dev.reliableredis.camel;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.sharded.ShardPicker;
import io.lettuce.core.Range;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** shards=3: where messages go, and that consuming and the admin operations cover every shard. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ShardsTest extends CamelRedisTestBase {

    static final int SHARDS = 3;

    String uri(String queue) {
        return "reliable-redis:" + queue + "?mode=" + mode + "&shards=" + SHARDS;
    }

    String sendSharded(String queue, Object body, Map<String, Object> headers) {
        Exchange sent = template.request(uri(queue), e -> {
            e.getMessage().setBody(body);
            e.getMessage().setHeaders(new HashMap<>(headers));
        });
        assertThat(sent.getException()).isNull();
        return sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
    }

    /** Messages waiting in one shard, read from its keys. */
    long readyIn(String queue, int shard) {
        String name = QueueNames.shard(queue, shard);
        return streamMode() ? raw.xlen(key(name, "stream")) : raw.llen(key(name, "ready"));
    }

    @SuppressWarnings("unchecked")
    Map<String, Long> shardedStats(String queue) {
        return template.requestBodyAndHeader(uri(queue), null, ReliableRedisConstants.OPERATION, "stats", Map.class);
    }

    @Test
    void messagesAreSpreadOverEveryShard() {
        List<String> ids = IntStream.range(0, 60).mapToObj(i -> sendSharded("orders", "m" + i, Map.of())).toList();

        for (int shard = 0; shard < SHARDS; shard++) {
            int picked = shard;
            long expected = ids.stream().filter(id -> ShardPicker.shardOf(id, SHARDS) == picked).count();
            assertThat(readyIn("orders", shard)).as("shard %d", shard).isPositive().isEqualTo(expected);
        }
        assertThat(shardedStats("orders")).containsEntry("ready", 60L);
    }

    @Test
    void aShardKeyKeepsRelatedMessagesOnOneShardInTheirOrder() throws Exception {
        for (int i = 0; i < 12; i++) {
            sendSharded("orders", "step " + i, Map.of(ReliableRedisConstants.SHARD_KEY, "customer-42"));
        }
        int shard = ShardPicker.shardOf("customer-42", SHARDS);
        assertThat(readyIn("orders", shard)).isEqualTo(12);

        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders")).process(received::add);
            }
        });
        awaitReceived(12);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class))
                .containsExactlyElementsOf(IntStream.range(0, 12).mapToObj(i -> "step " + i).toList());
    }

    @Test
    void theSameDeduplicationIdSentTwiceIsStoredOnce() {
        for (int i = 0; i < 10; i++) {
            Map<String, Object> id = Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "order-" + i);
            sendSharded("orders", "first", id);
            sendSharded("orders", "second", id);
        }

        assertThat(shardedStats("orders")).containsEntry("ready", 10L);
        assertThat(IntStream.range(0, SHARDS).filter(shard -> readyIn("orders", shard) > 0).count())
                .as("shards holding the ids").isGreaterThan(1);
    }

    @Test
    void consumersDrainEveryShard() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders") + "&concurrentConsumers=4").process(received::add);
            }
        });
        List<String> ids = IntStream.range(0, 90).mapToObj(i -> sendSharded("orders", "m" + i, Map.of())).toList();

        awaitReceived(90);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids);
        awaitShardedStats("orders", 0, 0);
    }

    @Test
    void aPauseHoldsEveryShardUntilTheResume() throws Exception {
        template.requestBodyAndHeader(uri("orders"), null, ReliableRedisConstants.OPERATION, "pause");
        for (int shard = 0; shard < SHARDS; shard++) {
            assertThat(raw.exists(key(QueueNames.shard("orders", shard), "paused"))).as("shard %d", shard).isOne();
        }
        assertThat(shardedStats("orders")).containsEntry("paused", 1L);
        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders") + "&concurrentConsumers=2&pollTimeout=500").process(received::add);
            }
        });
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> sendSharded("orders", "m" + i, Map.of())).toList();
        String claimers = streamMode() ? key("orders", "group:camel:claimers") : key("orders", "claimers");
        List<String> time = raw.time();
        long sent = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        // each claim of a thread asks every shard, shard 0 (named as the queue) among them, which records it with
        // the claim's time plus two poll timeouts
        await("both threads claimed since the sends").atMost(Duration.ofSeconds(15)).until(() -> raw.zcount(claimers,
                Range.create((double) sent + 2 * 500, Double.POSITIVE_INFINITY)) >= 2);
        assertThat(received).isEmpty();
        assertThat(shardedStats("orders")).containsEntry("ready", 30L).containsEntry("inflight", 0L);

        assertThat(template.requestBodyAndHeader(uri("orders"), null, ReliableRedisConstants.OPERATION, "resume"))
                .isEqualTo(true);

        awaitReceived(30);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids);
        for (int shard = 0; shard < SHARDS; shard++) {
            assertThat(raw.exists(key(QueueNames.shard("orders", shard), "paused"))).as("shard %d", shard).isZero();
        }
    }

    @Test
    void deadLettersOfSeveralShardsAreCountedRedrivenAndPurged() throws Exception {
        alwaysFailingRoute("failing", uri("orders") + "&maxRetries=0", "no");
        IntStream.range(0, 30).forEach(i -> sendSharded("orders", "m" + i, Map.of()));
        awaitShardedStats("orders", 0, 30);
        context.getRouteController().stopRoute("failing");
        for (int shard = 0; shard < SHARDS; shard++) {
            String name = QueueNames.shard("orders", shard);
            long dead = streamMode() ? raw.xlen(key(name, "dead")) : raw.zcard(key(name, "dead"));
            assertThat(dead).as("dead letters of shard %d", shard).isPositive();
        }

        Long moved = template.requestBodyAndHeaders(uri("orders"), null,
                Map.of(ReliableRedisConstants.OPERATION, "redrive", ReliableRedisConstants.LIMIT, 25L), Long.class);
        assertThat(moved).isEqualTo(25);
        awaitShardedStats("orders", 25, 5);

        Long purged = template.requestBodyAndHeader(uri("orders"), null, ReliableRedisConstants.OPERATION, "purge",
                Long.class);
        assertThat(purged).isEqualTo(30);
        awaitShardedStats("orders", 0, 0);
    }

    @Test
    void aDeadLetterConsumerTakesTheDeadLettersOfEveryShard() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders") + "&maxRetries=0").throwException(new IllegalStateException("no"));
                from(uri("orders") + "&consumeDeadLetters=true").process(received::add);
            }
        });
        IntStream.range(0, 15).forEach(i -> sendSharded("orders", "m" + i, Map.of()));

        awaitReceived(15);
        assertThat(received).allSatisfy(e -> assertThat(e.getMessage().getHeader(ReliableRedisConstants.FAILURE,
                String.class)).contains("IllegalStateException"));
        awaitShardedStats("orders", 0, 0);
    }

    @Test
    void aListBodyIsSpreadAndEachElementAnswersInOrder() {
        Exchange sent = template.request(uri("orders"), e -> {
            e.getMessage().setBody(IntStream.range(0, 20).mapToObj(i -> "e" + i).toList());
            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, "batch");
        });

        assertThat(sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, List.class))
                .isEqualTo(IntStream.range(0, 20).mapToObj(i -> "batch:" + i).toList());
        assertThat(sent.getMessage().getHeader(ReliableRedisConstants.ENQUEUED, List.class)).containsOnly(true)
                .hasSize(20);
        assertThat(shardedStats("orders")).containsEntry("ready", 20L);
    }

    /** A schedule is kept on one queue: a sharded queue has none, so an unschedule removes nothing. */
    @Test
    void aShardedQueueHasNoScheduleToRemove() {
        sendSharded("orders", "first", Map.of());

        assertThat(template.requestBodyAndHeader(uri("orders"), null, ReliableRedisConstants.OPERATION, "unschedule",
                Boolean.class)).isFalse();
    }

    /** The count the queue was first used with is recorded; an endpoint with another count is refused, naming both. */
    @Test
    void anEndpointWithAnotherShardCountIsRefusedAndNothingIsStrandedByIt() throws Exception {
        sendSharded("orders", "first", Map.of());
        String twoShards = "reliable-redis:orders?mode=" + mode + "&shards=2";

        Exchange refused = template.request(twoShards, e -> e.getMessage().setBody("lost?"));
        assertThat(refused.getException()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Queue 'orders' has 3 shard(s)").hasMessageContaining("shards=2")
                .hasMessageContaining("reshard");
        assertThat(template.request("reliable-redis:orders?mode=" + mode, e -> e.getMessage().setBody("x"))
                .getException()).as("an unsharded endpoint").hasMessageContaining("has 3 shard(s)");
        assertThatThrownBy(() -> routes(new RouteBuilder() {
            public void configure() {
                from(twoShards).process(received::add);
            }
        })).hasStackTraceContaining("Queue 'orders' has 3 shard(s)");
        assertThat(shardedStats("orders").get("ready")).isEqualTo(1);
    }

    /** A reshard of a drained queue records the new count, and then only the new count is accepted. */
    @Test
    void aDrainedQueueIsReshardedAndThenOnlyTheNewCountIsAccepted() throws Exception {
        for (int i = 0; i < 6; i++) {
            sendSharded("orders", "m" + i, Map.of());
        }

        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders")).routeId("drain").process(received::add);
            }
        });
        awaitReceived(6);
        context.getRouteController().stopRoute("drain");
        awaitShardedStats("orders", 0, 0);
        // in list mode, the stopped route's threads count as live for two of its pollTimeouts
        Exchange resharded = await("the reshard").atMost(Duration.ofSeconds(10)).until(() -> template.request(
                uri("orders"), e -> e.getMessage().setHeaders(new HashMap<>(Map.of(ReliableRedisConstants.OPERATION,
                        "reshard", ReliableRedisConstants.SHARDS, 2)))), e -> e.getException() == null);
        assertThat(resharded.getMessage().getBody()).isEqualTo(2);

        String twoShards = "reliable-redis:orders?mode=" + mode + "&shards=2";
        assertThat(template.request(twoShards, e -> e.getMessage().setBody("after")).getException()).isNull();
        assertThat(template.request(uri("orders"), e -> e.getMessage().setBody("old")).getException())
                .hasMessageContaining("Queue 'orders' has 2 shard(s)").hasMessageContaining("shards=3");
    }

    /**
     * A reshard of a queue that holds messages moves them to where a send with the new count puts them, the messages
     * of one shard key in order; it is refused while the queue is consumed.
     */
    @Test
    void aQueueIsReshardedWithItsMessagesAndRefusedWhileConsumed() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(uri("orders") + "&pollTimeout=200").routeId("old").process(received::add);
            }
        });
        sendKeyedAndNot(0, 12);
        awaitReceived(12);
        Map<String, Object> reshard = Map.of(ReliableRedisConstants.OPERATION, "reshard", ReliableRedisConstants.SHARDS, 2);
        assertThat(template.request(uri("orders"), e -> e.getMessage().setHeaders(new HashMap<>(reshard))).getException())
                .hasMessageContaining("Queue 'orders' cannot be resharded while it is consumed")
                .hasMessageContaining("live consumer thread(s)");
        context.getRouteController().stopRoute("old");
        sendKeyedAndNot(12, 24);

        // the stopped route's threads count as live for two of its pollTimeouts
        await("the reshard").atMost(Duration.ofSeconds(10)).until(() -> template.request(uri("orders"),
                e -> e.getMessage().setHeaders(new HashMap<>(reshard))).getException() == null);

        assertThat(template.request(uri("orders"), e -> e.getMessage().setBody("old")).getException())
                .hasMessageContaining("Queue 'orders' has 2 shard(s)");
        received.clear();
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=" + mode + "&shards=2").process(received::add);
            }
        });
        awaitReceived(12);
        List<String> bodies = received.stream().map(e -> e.getMessage().getBody(String.class)).toList();
        assertThat(bodies).containsExactlyInAnyOrderElementsOf(IntStream.range(12, 24).mapToObj(i -> "m" + i).toList());
        assertThat(bodies.stream().filter(b -> Integer.parseInt(b.substring(1)) % 2 == 0).toList())
                .as("one key's messages in order").containsExactly("m12", "m14", "m16", "m18", "m20", "m22");
        assertThat(received).as("the shard key stays with the stored message, not on the exchange")
                .allSatisfy(e -> assertThat(e.getMessage().getHeader(ReliableRedisConstants.SHARD_KEY)).isNull());
    }

    /**
     * An endpoint that checked the count before a reshard keeps the old count: each shard's marker, which every send
     * and claim script reads, refuses it at its next send, storing nothing, and at each claim of its consumer, which
     * takes nothing and reports the refusal.
     */
    @Test
    void anEndpointThatCheckedBeforeAReshardIsRefusedAtItsNextSendAndClaim() throws Exception {
        List<String> reported = recordOutages();
        String stale = "reliable-redis:orders?mode=" + mode + "&shards=2&pollTimeout=200"
                       + "&exceptionHandler=#recordingHandler";
        String current = "reliable-redis:orders?mode=" + mode + "&shards=2";
        assertThat(template.request(stale, e -> e.getMessage().setBody("before")).getException()).isNull();
        assertThat(template.request(current, e -> e.getMessage().setBody("before too")).getException()).isNull();

        reshard("reliable-redis:orders?mode=" + mode + "&shards=2&commandTimeout=4000", 3);

        for (int i = 0; i < 4; i++) {
            int n = i;
            assertThat(template.request(stale, e -> e.getMessage().setBody("late" + n)).getException())
                    .as("send %d of the stale endpoint", i).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Queue 'orders' has 3 shard(s)").hasMessageContaining("shards=2");
        }
        assertThat(template.request(current, e -> e.getMessage().setBody("late")).getException())
                .as("the other endpoint with the old count").hasMessageContaining("Queue 'orders' has 3 shard(s)");
        routes(new RouteBuilder() {
            public void configure() {
                from(stale).process(received::add);
            }
        });
        await("the stale consumer's refusal reported").atMost(Duration.ofSeconds(10))
                .until(() -> reported.stream().anyMatch(r -> r.contains("Queue 'orders' has 3 shard(s)")
                                                             && r.contains("shards=2")));
        assertThat(received).as("claimed by the stale consumer").isEmpty();
        assertThat(shardedStats("orders")).containsEntry("ready", 2L).containsEntry("inflight", 0L);
    }

    /** A reshard to 1 marks the shards it removes too: a stale endpoint's send to any of them is refused. */
    @Test
    void aStaleEndpointIsRefusedOnShardsAReshardRemoved() {
        String stale = "reliable-redis:orders?mode=" + mode + "&shards=2";
        assertThat(template.request(stale, e -> e.getMessage().setBody("before")).getException()).isNull();

        reshard("reliable-redis:orders?mode=" + mode + "&shards=2&commandTimeout=4000", 1);

        for (int i = 0; i < 6; i++) {
            int n = i;
            assertThat(template.request(stale, e -> e.getMessage().setBody("late" + n)).getException())
                    .as("send %d of the stale endpoint", i).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Queue 'orders' has 1 shard(s)").hasMessageContaining("shards=2");
        }
        assertThat(readyIn("orders", 0) + readyIn("orders", 1)).as("stored").isEqualTo(1);
    }

    /** An unsharded endpoint that checked before a reshard from 1 to 2 is refused at its next send. */
    @Test
    void anUnshardedEndpointThatCheckedBeforeAReshardIsRefusedAtItsNextSend() {
        String stale = "reliable-redis:orders?mode=" + mode;
        assertThat(template.request(stale, e -> e.getMessage().setBody("before")).getException()).isNull();

        reshard("reliable-redis:orders?mode=" + mode + "&commandTimeout=4000", 2);

        assertThat(template.request(stale, e -> e.getMessage().setBody("late")).getException())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Queue 'orders' has 2 shard(s)").hasMessageContaining("shards=1");
        assertThat(readyIn("orders", 0) + readyIn("orders", 1)).as("stored").isEqualTo(1);
    }

    /** Sends m<from>..m<to - 1>, the even ones with one shard key. */
    private void sendKeyedAndNot(int from, int to) {
        for (int i = from; i < to; i++) {
            sendSharded("orders", "m" + i, i % 2 == 0 ? Map.of(ReliableRedisConstants.SHARD_KEY, "customer-7") : Map.of());
        }
    }

    @Test
    void aStreamKeyWithShardsIsRefusedNamingTheOptions() {
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:orders?mode=stream&shards=2&streamKey=order_stream"))
                .hasStackTraceContaining("shards=2 cannot be combined with streamKey or deadLetterKey")
                .hasStackTraceContaining("streamKey=order_stream");
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:orders?mode=stream&shards=2&deadLetterKey=dlq"))
                .hasStackTraceContaining("deadLetterKey=dlq");
        assertThat(context.getEndpoint("reliable-redis:orders?mode=stream&shards=1&streamKey={orders}:feed"))
                .as("one shard attaches to an existing stream").isNotNull();
    }

    void awaitShardedStats(String queue, long ready, long dead) {
        await("stats of " + queue).atMost(Duration.ofSeconds(15))
                .until(() -> {
                    Map<String, Long> stats = shardedStats(queue);
                    return stats.get("ready") == ready && stats.get("dead") == dead && stats.get("inflight") == 0
                           && stats.get("delayed") == 0;
                });
    }
}
