package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.testsupport.SentinelGroup;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

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
class SentinelTest extends OwnServersTestBase {

    private SentinelGroup redis;

    @BeforeEach
    void startSentinelGroup() throws Exception {
        redis = closedAfterTheTest(SentinelGroup.start());
    }

    @Test
    void sendsAndConsumesThroughTheMasterTheSentinelNames() throws Exception {
        // the URI as a user writes it, fragment and all, on the endpoint
        String endpoint = "reliable-redis:q?mode=" + mode + "&redisUri=" + redis.uri();
        List<String> received = new CopyOnWriteArrayList<>();
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
        FailoverFlow flow = new FailoverFlow(context, "reliable-redis:q?mode=" + mode + "&redisUri=" + redis.uri());
        flow.awaitFlowing();

        redis.master().kill();
        Duration failover = redis.awaitFailover(FailoverFlow.FAILOVER);

        flow.assertCarriedOn(System.nanoTime(), failover);
    }
}
