package dev.reliableredis.camel;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.reliableredis.testsupport.RedisCluster;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.CamelContext;
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
 * The component on a Redis Cluster of three masters with a replica each: the master of the queue's slot is killed
 * while messages flow, its replica takes the slot over, and the producer and consumer carry on with it, having
 * followed the new topology on their own. Replication is asynchronous, so sends acknowledged just before the kill
 * may be lost; as in SentinelTest, the test bounds where losses can come from instead of asserting there are none.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ClusterFailoverTest {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterFailoverTest.class);
    /** The node timeout (5 s) before the replica starts its election, and the election. */
    private static final Duration FAILOVER = Duration.ofSeconds(30);

    @Parameter
    String mode;

    private RedisCluster cluster;
    private CamelContext context;
    private ProducerTemplate template;

    @BeforeEach
    void start() {
        cluster = RedisCluster.start(3, true);
        context = new DefaultCamelContext();
        context.start();
        template = context.createProducerTemplate();
    }

    @AfterEach
    void stop() {
        try {
            context.stop();
        } finally {
            cluster.close();
        }
    }

    @Test
    void producerAndConsumerCarryOnWithTheReplicaThatTookOverTheQueuesSlot() throws Exception {
        SendLedger ledger = new SendLedger();
        String queue = "reliable-redis:q?mode=" + mode + "&redisUri=" + cluster.uri();
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

        RedisProcess master = cluster.masterOf("{q}");
        RedisProcess replica = cluster.replicaOf(master);
        master.kill();
        Duration failover = cluster.awaitFailoverTo(replica, FAILOVER);
        long promoted = System.nanoTime();

        await("sends succeed again").atMost(FAILOVER).until(() -> ledger.ackedSince(promoted).size() >= 50);
        Set<String> sentAfter = ledger.ackedSince(promoted);
        await("the consumer receives what was sent after the failover").atMost(FAILOVER)
                .until(() -> ledger.receivedIds().containsAll(sentAfter));

        context.getRouteController().stopRoute("producer");
        await("the new master's queue is drained").atMost(FAILOVER).ignoreExceptions()
                .until(() -> stats(queue).equals(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L)));

        Set<String> lost = ledger.lost();
        LOG.info("{} mode: failover {} ms; {} sends acknowledged, {} failed, {} acknowledged before the failover lost, "
                 + "{} duplicate deliveries", mode, failover.toMillis(), ledger.acked().size(), ledger.failedCount(),
                lost.size(), ledger.duplicates());
        assertThat(replica.commands().info("commandstats")).as("the scripts ran on the replica that took over")
                .contains("cmdstat_evalsha");
        assertThat(ledger.attempted()).as("every message received was sent").containsAll(ledger.receivedIds());
        assertThat(ledger.receivedIds()).as("every send acknowledged by the new master was delivered")
                .containsAll(ledger.ackedSince(promoted));
        assertThat(lost).as("only sends acknowledged before the takeover can be lost")
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
