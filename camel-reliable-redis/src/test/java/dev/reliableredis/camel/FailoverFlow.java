package dev.reliableredis.camel;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Messages flowing through one queue while its master fails over, for SentinelTest and FailoverClusterTest: a timer
 * route sends a message with a fresh deduplication id every 5 ms, another route consumes them, and a {@link
 * SendLedger} keeps what was sent, acknowledged and received; after the failover, what must hold of them.
 */
final class FailoverFlow {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverFlow.class);
    /**
     * How long the failover may take, and each step of the flow after it: the time before the replica is elected
     * (Sentinel's down-after of 1 s, a cluster's node timeout of 5 s) and the election.
     */
    static final Duration FAILOVER = Duration.ofSeconds(30);

    private final CamelContext context;
    private final String queue;
    private final SendLedger ledger = new SendLedger();

    /** Adds the two routes to the context. */
    FailoverFlow(CamelContext context, String queue) throws Exception {
        this.context = context;
        this.queue = queue;
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
    }

    void awaitFlowing() {
        await("messages flow").atMost(Duration.ofSeconds(15)).until(() -> ledger.receivedCount() >= 50);
    }

    /**
     * After the new master took over at {@code promoted} (System.nanoTime()): sends succeed again, what they sent is
     * delivered, the queue drains, every delivery was sent, and only sends acknowledged before the takeover can be
     * lost (asynchronous replication).
     */
    void assertCarriedOn(long promoted, Duration failover) throws Exception {
        await("sends succeed again").atMost(FAILOVER).until(() -> ledger.ackedSince(promoted).size() >= 50);
        Set<String> sentAfter = ledger.ackedSince(promoted);
        await("the consumer receives what was sent after the failover").atMost(FAILOVER)
                .until(() -> ledger.receivedIds().containsAll(sentAfter));

        context.getRouteController().stopRoute("producer");
        ProducerTemplate template = context.createProducerTemplate();
        // a stats call can meet the client's reconnection to the new master
        await("the new master's queue is drained").atMost(FAILOVER).ignoreExceptions().until(() -> stats(template)
                .equals(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L)));

        Set<String> lost = ledger.lost();
        LOG.info("{}: failover {} ms; {} sends acknowledged, {} failed, {} acknowledged before the failover lost, {} "
                 + "duplicate deliveries", queue, failover.toMillis(), ledger.acked().size(), ledger.failedCount(),
                lost.size(), ledger.duplicates());
        assertThat(ledger.attempted()).as("every message received was sent").containsAll(ledger.receivedIds());
        assertThat(ledger.receivedIds()).as("every send acknowledged by the new master was delivered")
                .containsAll(ledger.ackedSince(promoted));
        assertThat(lost).as("only sends acknowledged before the takeover can be lost")
                .allMatch(id -> ledger.ackedAt(id) - promoted < 0);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Long> stats(ProducerTemplate template) {
        Map<String, Long> all = template.requestBodyAndHeader(queue, null, ReliableRedisConstants.OPERATION, "stats",
                Map.class);
        return Map.of("ready", all.get("ready"), "inflight", all.get("inflight"), "delayed", all.get("delayed"),
                "dead", all.get("dead"));
    }
}
