package dev.reliableredis.camel;

import java.time.Duration;

import dev.reliableredis.testsupport.RedisCluster;
import dev.reliableredis.testsupport.RedisProcess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The component on a Redis Cluster of three masters with a replica each: the master of the queue's slot is killed
 * while messages flow, its replica takes the slot over, and the producer and consumer carry on with it, having
 * followed the new topology on their own. Replication is asynchronous, so sends acknowledged just before the kill
 * may be lost; as in SentinelTest, the test bounds where losses can come from instead of asserting there are none.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class FailoverClusterTest extends OwnServersTestBase {

    private RedisCluster cluster;

    @BeforeEach
    void startCluster() {
        cluster = closedAfterTheTest(RedisCluster.start(3, true));
    }

    @Test
    void producerAndConsumerCarryOnWithTheReplicaThatTookOverTheQueuesSlot() throws Exception {
        FailoverFlow flow = new FailoverFlow(context, "reliable-redis:q?mode=" + mode + "&redisUri=" + cluster.uri());
        flow.awaitFlowing();

        RedisProcess master = cluster.masterOf("{q}");
        RedisProcess replica = cluster.replicaOf(master);
        master.kill();
        Duration failover = cluster.awaitFailoverTo(replica, FailoverFlow.FAILOVER);

        flow.assertCarriedOn(System.nanoTime(), failover);
        assertThat(replica.commands().info("commandstats")).as("the scripts ran on the replica that took over")
                .contains("cmdstat_evalsha");
    }
}
