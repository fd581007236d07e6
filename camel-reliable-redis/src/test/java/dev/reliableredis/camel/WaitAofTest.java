package dev.reliableredis.camel;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.reliableredis.testsupport.CommandStats;
import dev.reliableredis.testsupport.RedisProcess;
import dev.reliableredis.testsupport.SentinelGroup;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * waitAof=true: enqueues and acks wait with WAITAOF until the master's append-only file, and those of waitReplicas
 * replicas, have them. WAITAOF came with Redis 7.2: on an older server a send fails saying so. The tests that need
 * 7.2 run where the server under test has it (.ci/redis-versions runs them on 7.4, 8.0 and Valkey 8.0).
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class WaitAofTest extends OwnServersTestBase {

    private static final Pattern VERSION = Pattern.compile("redis_version:(\\d+)\\.(\\d+)");

    private RedisProcess master;
    private RedisProcess replica;

    @Test
    void onAServerOlderThan72ASendFailsNamingTheOptionAndTheVersion() {
        master = closedAfterTheTest(SentinelGroup.startMaster("--appendonly", "yes"));
        assumeThat(hasWaitAof()).as("the server under test has WAITAOF").isFalse();

        Exchange sent = send("&waitAof=true", "order-1");

        assertThat(sent.getException()).hasMessageContaining("WAITAOF (waitAof=true) needs Redis 7.2 or newer");
    }

    @Test
    void aSendAndItsAckWaitForTheMastersAppendOnlyFile() throws Exception {
        // with everysec, WAITAOF waits for the next fsync, up to a second
        master = closedAfterTheTest(SentinelGroup.startMaster("--appendonly", "yes", "--appendfsync", "everysec"));
        assumeThat(hasWaitAof()).as("the server under test has WAITAOF").isTrue();
        long waitsBefore = CommandStats.of(master.commands(), "waitaof", "calls");

        assertThat(send("&waitAof=true&waitTimeout=5000", "order-2").getException()).isNull();
        assertThat(CommandStats.of(master.commands(), "waitaof", "calls")).isEqualTo(waitsBefore + 1);

        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(queue("&waitAof=true&waitTimeout=5000")).routeId("consume").log("${body}");
            }
        });
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
        await("acked").atMost(Duration.ofSeconds(15))
                .until(() -> consumer.getAckedCount() == 1);
        assertThat(CommandStats.of(master.commands(), "waitaof", "calls")).as("the ack waited too")
                .isEqualTo(waitsBefore + 2);
        assertThat(consumer.getUnreplicatedAckCount()).isZero();
    }

    @Test
    void aSendFailsNamingTheOptionsWhenTheReplicaKeepsNoAppendOnlyFile() {
        // the master's file has every write at once: only the replica is waited for
        master = closedAfterTheTest(SentinelGroup.startMaster("--appendonly", "yes", "--appendfsync", "always"));
        assumeThat(hasWaitAof()).as("the server under test has WAITAOF").isTrue();
        replica = closedAfterTheTest(SentinelGroup.startReplicaOf(master, "--appendonly", "no"));

        Exchange sent = send("&waitAof=true&waitReplicas=1&waitTimeout=300", "order-3");

        assertThat(sent.getException()).hasMessageContaining("enqueue on queue 'q' failed: WAITAOF (waitAof=true) "
                + "within waitTimeout (300 ms): 0 of the 1 replicas that waitReplicas=1 asks for have it in their "
                + "append-only files");
    }

    @Test
    void aReplicaWithAnAppendOnlyFileConfirmsTheSend() {
        master = closedAfterTheTest(SentinelGroup.startMaster("--appendonly", "yes", "--appendfsync", "always"));
        assumeThat(hasWaitAof()).as("the server under test has WAITAOF").isTrue();
        replica = closedAfterTheTest(SentinelGroup.startReplicaOf(master, "--appendonly", "yes", "--appendfsync",
                "always"));

        assertThat(send("&waitAof=true&waitReplicas=1&waitTimeout=5000", "order-4").getException()).isNull();
    }

    private String queue(String options) {
        return "reliable-redis:q?mode=" + mode + "&redisUri=" + master.uri() + options;
    }

    private Exchange send(String options, String id) {
        return template.send(queue(options), e -> {
            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
            e.getMessage().setBody("body of " + id);
        });
    }

    /** Redis 7.2 and newer; Valkey reports the Redis version it is compatible with, 7.2.4. */
    private boolean hasWaitAof() {
        Matcher version = VERSION.matcher(master.commands().info("server"));
        assertThat(version.find()).as("redis_version in INFO server").isTrue();
        int major = Integer.parseInt(version.group(1));
        return major > 7 || major == 7 && Integer.parseInt(version.group(2)) >= 2;
    }
}
