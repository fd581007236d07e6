package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.reliableredis.testsupport.SentinelGroup;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The component on a Sentinel-watched master with one replica: it finds the master through the Sentinel, and after
 * the master is killed while messages flow and the Sentinel promotes the replica, its producer and consumer carry on
 * with the new master on their own. Replication is asynchronous, so sends acknowledged just before the kill may be
 * lost; the test bounds where losses can come from instead of asserting there are none.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class SentinelTest {

    private static final Logger LOG = LoggerFactory.getLogger(SentinelTest.class);
    private static final Duration FAILOVER = Duration.ofSeconds(30);

    @Parameter
    String mode;

    private SentinelGroup redis;
    private CamelContext context;
    private ProducerTemplate template;

    @BeforeEach
    void start() throws Exception {
        redis = SentinelGroup.start();
        context = new DefaultCamelContext();
        context.start();
        template = context.createProducerTemplate();
    }

    @AfterEach
    void stop() {
        try {
            context.stop();
        } finally {
            redis.close();
        }
    }

    @Test
    void sendsAndConsumesThroughTheMasterTheSentinelNames() throws Exception {
        // the URI as a user writes it, fragment and all, on the endpoint
        String endpoint = "reliable-redis:q?mode=" + mode + "&redisUri=" + redis.uri();
        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(endpoint).process(e -> received.add(e.getMessage().getBody(String.class)));
            }
        });

        for (String body : List.of("a", "b", "c")) {
            Exchange sent = template.send(endpoint, e -> e.getMessage().setBody(body));
            assertThat(sent.getException()).isNull();
        }

        await("three messages received").atMost(Duration.ofSeconds(15)).until(() -> received.size() == 3);
        assertThat(received).containsExactly("a", "b", "c");
        assertThat(redis.master().commands().info("commandstats")).as("the scripts ran on the master")
                .contains("cmdstat_evalsha");
        assertThat(redis.replica().commands().info("commandstats")).as("no script ran on the replica")
                .doesNotContain("cmdstat_evalsha");
    }

    @Test
    void producerAndConsumerCarryOnWithThePromotedReplicaAfterTheMasterIsKilled() throws Exception {
        SendLedger ledger = new SendLedger();
        String queue = "reliable-redis:q?mode=" + mode + "&redisUri=" + redis.uri();
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                // a send that fails is counted; its id is not used again
                onException(Exception.class).handled(true).process(e -> ledger.failed());
                from("timer:produce?period=5").routeId("producer")
                        .process(e -> {
                            String id = ledger.nextId();
                            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
                            e.getMessage().setBody(id);
                        })
                        .to(queue)
                        .process(e -> ledger.acked(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID,
                                String.class)));
                // short leases: a claim the new master has but whose consumer lost track of it comes back soon
                from(queue + "&visibilityTimeout=5000").routeId("consumer")
                        .process(e -> ledger.received(e.getMessage().getBody(String.class)));
            }
        });
        await("messages flow").atMost(Duration.ofSeconds(15)).until(() -> ledger.receivedCount() >= 50);

        redis.master().kill();
        Duration failover = redis.awaitFailover(FAILOVER);
        long promoted = System.nanoTime();

        await("sends succeed again").atMost(FAILOVER).until(() -> ledger.ackedSince(promoted).size() >= 50);
        Set<String> sentAfter = ledger.ackedSince(promoted);
        await("the consumer receives what was sent after the failover").atMost(FAILOVER)
                .until(() -> ledger.receivedIds().containsAll(sentAfter));

        context.getRouteController().stopRoute("producer");
        await("the new master's queue is drained").atMost(FAILOVER)
                .until(() -> stats(queue).equals(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L)));

        Set<String> lost = ledger.lost();
        LOG.info("{} mode: failover {} ms; {} sends acknowledged, {} failed, {} acknowledged before the failover lost, "
                 + "{} duplicate deliveries", mode, failover.toMillis(), ledger.acked().size(), ledger.failedCount(),
                lost.size(), ledger.duplicates());
        assertThat(ledger.attempted()).as("every message received was sent").containsAll(ledger.receivedIds());
        assertThat(ledger.receivedIds()).as("every send acknowledged by the new master was delivered")
                .containsAll(ledger.ackedSince(promoted));
        assertThat(lost).as("only sends acknowledged before the promotion can be lost")
                .allMatch(id -> ledger.ackedAt(id) - promoted < 0);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Long> stats(String queue) {
        Map<String, Long> all = template.requestBodyAndHeader(queue, null, ReliableRedisConstants.OPERATION, "stats",
                Map.class);
        return Map.of("ready", all.get("ready"), "inflight", all.get("inflight"), "delayed", all.get("delayed"),
                "dead", all.get("dead"));
    }
}
