package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import dev.reliableredis.queue.NotStoredException;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.testsupport.RedisCluster;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.cluster.RedisClusterClient;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue of three shards on three masters, one of them paused with SIGSTOP (it holds its connections open and
 * answers nothing), used through an application's {@code RedisClusterClient} bean with Lettuce's default timeout
 * (60 s) and {@code commandTimeout=2000}, while the application runs (its connections open): every send ends within
 * the command timeout, only the sends whose messages are on the paused master fail, and the other shards' messages
 * are consumed meanwhile. The failed sends say that they were not stored, and are not when the master resumes and
 * runs them, past their deadline.
 */
class ShardOutageClusterTest {

    private static final int SHARDS = 3;
    private static RedisCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start(SHARDS);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void withOneMasterPausedOnlyItsShardsSendsFailAndTheOtherShardsAreConsumed() throws Exception {
        String queue = IntStream.range(0, 1000).mapToObj(i -> "outage" + i).filter(this::onThreeMasters).findFirst()
                .orElseThrow();
        RedisClusterClient client = RedisClusterClient.create(cluster.uri());
        CamelContext context = new DefaultCamelContext();
        context.getRegistry().bind("cluster", client);
        String uri = "reliable-redis:" + queue + "?shards=" + SHARDS + "&redisClient=#cluster&commandTimeout=2000";
        List<String> received = new CopyOnWriteArrayList<>();
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(uri + "&concurrentConsumers=2").routeId("consumer")
                        .process(e -> received.add(e.getMessage().getBody(String.class)));
            }
        });
        context.start();
        ProducerTemplate template = context.createProducerTemplate();
        RedisProcess paused = cluster.masterOf(key(QueueNames.shard(queue, 1)));
        ExecutorService senders = Executors.newFixedThreadPool(16);
        try {
            // every connection open before the outage, as in a running application: the consumer threads' own
            // connections are open once each thread claimed twice
            for (int shard = 0; shard < SHARDS; shard++) {
                assertThat(send(template, uri, "warm-" + shard, shard).getException()).isNull();
            }
            ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consumer").getConsumer();
            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() == SHARDS
                                                               && consumer.getClaimCallCount() >= 3 * 2);
            paused.pause();
            Map<Integer, Exchange> sent = new ConcurrentHashMap<>();
            for (int i = 0; i < 64; i++) {
                int n = i;
                senders.execute(() -> sent.put(n, send(template, uri, "m" + n, n % SHARDS)));
            }

            await().atMost(Duration.ofSeconds(60)).until(() -> sent.size() == 64);
            sent.forEach((n, exchange) -> {
                if (n % SHARDS == 1) {
                    assertThat(exchange.getException()).as("send %d, to the paused master", n)
                            .isInstanceOf(NotStoredException.class).hasMessageContaining("timed out");
                } else {
                    assertThat(exchange.getException()).as("send %d", n).isNull();
                }
            });

            List<String> expected = IntStream.range(0, 64).filter(n -> n % SHARDS != 1).mapToObj(n -> "m" + n)
                    .toList();
            await().atMost(Duration.ofSeconds(60)).until(() -> received.containsAll(expected));
            assertThat(received).doesNotHaveDuplicates();

            paused.resume();
            // on the node connection that holds the failed sends, so the master has run them once this one is stored
            assertThat(send(template, uri, "after", 1).getException()).isNull();
            List<String> failed = IntStream.range(0, 64).filter(n -> n % SHARDS == 1).mapToObj(n -> "m" + n).toList();
            await().atMost(Duration.ofSeconds(30)).until(() -> received.contains("after"));
            await("no failed send is delivered").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> received.stream().noneMatch(failed::contains));
        } finally {
            paused.resume();
            senders.shutdownNow();
            context.stop();
            client.shutdown();
        }
    }

    private static Exchange send(ProducerTemplate template, String uri, String body, int shard) {
        return template.request(uri, e -> {
            e.getMessage().setBody(body);
            e.getMessage().setHeader(ReliableRedisConstants.SHARD_KEY, keyFor(shard));
        });
    }

    private static String keyFor(int shard) {
        return IntStream.range(0, 1000).mapToObj(i -> "key" + i).filter(k -> ShardPicker.shardOf(k, SHARDS) == shard)
                .findFirst().orElseThrow();
    }

    private static String key(String queue) {
        return "rr:{" + queue + "}:";
    }

    private boolean onThreeMasters(String queue) {
        return IntStream.range(0, SHARDS).mapToObj(shard -> cluster.masterOf(key(QueueNames.shard(queue, shard))))
                .distinct().count() == SHARDS;
    }
}
