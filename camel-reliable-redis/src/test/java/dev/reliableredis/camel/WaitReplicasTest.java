package dev.reliableredis.camel;

import java.time.Duration;
import java.util.Map;

import dev.reliableredis.testsupport.CommandStats;
import dev.reliableredis.testsupport.RedisProcess;
import dev.reliableredis.testsupport.SentinelGroup;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * waitReplicas=1 on a master with one replica: enqueues and acks wait (Redis WAIT) until the replica has them. A
 * send the replica did not confirm fails naming the option, and repeating it with its deduplication id is safe; an
 * ack it did not confirm is logged, counted and stays done.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class WaitReplicasTest extends OwnServersTestBase {

    private RedisProcess master;
    private RedisProcess replica;

    @BeforeEach
    void startMasterAndReplica() {
        master = closedAfterTheTest(SentinelGroup.startMaster());
        replica = closedAfterTheTest(SentinelGroup.startReplicaOf(master));
    }

    private String queue(String options) {
        return "reliable-redis:q?mode=" + mode + "&redisUri=" + master.uri() + "&waitReplicas=1" + options;
    }

    private Exchange send(String endpoint, String id) {
        return template.send(endpoint, e -> {
            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
            e.getMessage().setBody("body of " + id);
        });
    }

    @Test
    void aSendAndItsAckEachWaitForTheReplica() throws Exception {
        long waitsBefore = CommandStats.of(master.commands(), "wait", "calls");

        Exchange sent = send(queue(""), "order-1");

        assertThat(sent.getException()).isNull();
        assertThat(holds(replica.commands(), "order-1")).as("the replica has the message when the send returns")
                .isTrue();
        assertThat(CommandStats.of(master.commands(), "wait", "calls")).isEqualTo(waitsBefore + 1);

        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(queue("")).routeId("consume").log("${body}");
            }
        });
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
        await("the ack").atMost(Duration.ofSeconds(15)).until(() -> consumer.getAckedCount() == 1);
        assertThat(CommandStats.of(master.commands(), "wait", "calls")).as("the ack waited too")
                .isEqualTo(waitsBefore + 2);
        assertThat(consumer.getUnreplicatedAckCount()).isZero();
    }

    @Test
    void aSendTheStoppedReplicaDoesNotConfirmFailsNamingTheOptionAndSendingItAgainIsSafe() {
        replica.pause();
        Exchange sent;
        try {
            sent = send(queue("&waitTimeout=300"), "order-2");
        } finally {
            replica.resume();
        }

        assertThat(sent.getException()).hasMessageContaining("enqueue on queue 'q' failed: 0 of the 1 replicas "
                + "that waitReplicas=1 asks for acknowledged it within waitTimeout (300 ms)")
                .hasMessageContaining("a send with a CamelReliableRedisDeduplicationId can be repeated safely");
        assertThat(holds(master.commands(), "order-2")).as("stored on the master all the same").isTrue();

        Exchange again = send(queue(""), "order-2");
        assertThat(again.getException()).isNull();
        assertThat(again.getMessage().getHeader(ReliableRedisConstants.ENQUEUED)).as("a no-op").isEqualTo(false);
        assertThat(holds(replica.commands(), "order-2")).isTrue();
    }

    @Test
    void aSendFailsNamingTheOptionWhenTheReplicaIsKilled() {
        replica.kill();

        Exchange sent = send(queue("&waitTimeout=300"), "order-3");

        assertThat(sent.getException()).hasMessageContaining("0 of the 1 replicas that waitReplicas=1 asks for "
                                                             + "acknowledged it within waitTimeout (300 ms)");
    }

    @Test
    void anAckTheStoppedReplicaDoesNotConfirmIsLoggedCountedAndStaysDone() throws Exception {
        assertThat(send(queue(""), "order-4").getException()).isNull();
        String warning = "1 acks of queue 'q' are done on the master but not known to be replicated or on disk: 0 of "
                         + "the 1 replicas that waitReplicas=1 asks for acknowledged it within waitTimeout (300 ms)";
        int warningsBefore = TestLog.occurrences(warning);
        replica.pause();
        try {
            context.addRoutes(new RouteBuilder() {
                public void configure() {
                    from(queue("&waitTimeout=300")).routeId("consume").log("${body}");
                }
            });
            ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
            // the unconfirmed ack is counted when WAIT answers, before the settlement counts it as acked
            await("the unconfirmed ack is counted, and as acked").atMost(Duration.ofSeconds(15))
                    .until(() -> consumer.getUnreplicatedAckCount() == 1 && consumer.getAckedCount() == 1);
        } finally {
            replica.resume();
        }
        assertThat(TestLog.occurrences(warning)).isEqualTo(warningsBefore + 1);
        assertThat(stats()).as("acked on the master: nothing waits, nothing is in flight")
                .isEqualTo(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L));
    }

    /** Whether the server holds the message with this id (waiting, in flight or dead). */
    private boolean holds(RedisCommands<String, String> server, String id) {
        return streamMode() ? server.hexists("rr:{q}:ids", id) : server.hexists("rr:{q}:messages", id);
    }

    private boolean streamMode() {
        return "stream".equals(mode);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Long> stats() {
        Map<String, Long> all = template.requestBodyAndHeader("reliable-redis:q?mode=" + mode + "&redisUri="
                + master.uri(), null, ReliableRedisConstants.OPERATION, "stats", Map.class);
        return Map.of("ready", all.get("ready"), "inflight", all.get("inflight"), "delayed", all.get("delayed"),
                "dead", all.get("dead"));
    }
}
