package dev.reliableredis.camel;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tests of {@link ShardsTest} on a Redis Cluster of three masters; and a queue whose three shards are served by
 * the three masters, each consumed.
 */
@RedisUnderTest(cluster = true)
class ShardsClusterTest extends ShardsTest {

    @Test
    void theShardsOfAQueueLandOnDifferentMastersAndAreAllConsumed() throws Exception {
        String queue = IntStream.range(0, 1000).mapToObj(i -> "spread" + i).filter(this::onThreeMasters).findFirst()
                .orElseThrow();
        routes(new RouteBuilder() {
            public void configure() {
                from(uri(queue) + "&concurrentConsumers=3").process(received::add);
            }
        });
        List<String> ids = IntStream.range(0, 60).mapToObj(i -> sendSharded(queue, "m" + i, Map.of())).toList();

        awaitReceived(60);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids);
        for (int shard = 0; shard < SHARDS; shard++) {
            String acked = key(QueueNames.shard(queue, shard), "acked");
            RedisProcess master = cluster.masterOf(acked);
            assertThat(master.commands().exists(acked)).as("acked ids of shard %d on its master", shard).isEqualTo(1);
        }
    }

    private boolean onThreeMasters(String queue) {
        return IntStream.range(0, SHARDS).mapToObj(shard -> cluster.masterOf(key(QueueNames.shard(queue, shard), "")))
                .distinct().count() == SHARDS;
    }
}
