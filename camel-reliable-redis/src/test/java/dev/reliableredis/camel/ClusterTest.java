package dev.reliableredis.camel;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** What is particular to a Redis Cluster: node lists, queues on every master, keys that must share a slot. */
@RedisUnderTest(cluster = true)
class ClusterTest extends CamelRedisTestBase {

    @Test
    void aNodeListNamesEveryNodeWithTheCredentialsOfTheOption() {
        List<RedisURI> nodes = RedisUris.parse("redis://h1:7000,h2:7001,h3:7002?timeout=3s", "app", "s3cret");

        assertThat(nodes).extracting(RedisURI::getHost, RedisURI::getPort)
                .containsExactly(tuple("h1", 7000), tuple("h2", 7001), tuple("h3", 7002));
        assertThat(nodes).allSatisfy(node -> assertThat(node.getCredentialsProvider().resolveCredentials().block()
                .getUsername()).isEqualTo("app"));
    }

    @Test
    void aNodeListWithADatabaseIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:q?redisUri=redis://h1:7000,h2:7001/2"))
                .rootCause().hasMessageContaining("redisUri 'redis://h1:7000,h2:7001/2' names a Redis Cluster")
                .hasMessageContaining("database 2");
    }

    @Test
    void waitReplicasOnANodeListIsRefused() {
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:q?redisUri=redis://h1:7000,h2:7001&waitReplicas=1"))
                .rootCause().hasMessageContaining("waitReplicas is not supported on a Redis Cluster");
    }

    @Test
    void queuesOnEveryMasterAreFedAndConsumedInBothModes() throws Exception {
        List<String> queues = queuesOnDistinctMasters();
        routes(new RouteBuilder() {
            public void configure() {
                for (String queue : queues) {
                    from("reliable-redis:" + queue).process(received::add);
                    from("reliable-redis:" + queue + "-s?mode=stream").process(received::add);
                }
            }
        });
        for (String queue : queues) {
            template.sendBody("reliable-redis:" + queue, "to " + queue);
            template.sendBody("reliable-redis:" + queue + "-s?mode=stream", "to " + queue + "-s");
        }

        awaitReceived(2 * queues.size());
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactlyInAnyOrderElementsOf(
                queues.stream().flatMap(q -> List.of("to " + q, "to " + q + "-s").stream()).toList());
        for (String queue : queues) {
            // each queue's idempotency record is on the master of its slot
            assertThat(cluster.masterOf(key(queue, "")).commands().exists(key(queue, "acked"))).isEqualTo(1);
        }
    }

    @Test
    void aStreamKeyOutsideTheQueuesSlotIsRefusedAtStartNamingTheKeyAndTheRemedy() {
        String foreign = "order_stream";
        assertThat(SlotHash.getSlot(foreign)).isNotEqualTo(SlotHash.getSlot(key("orders", "ids")));

        assertThatThrownBy(() -> routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=stream&streamKey=" + foreign).process(received::add);
            }
        })).rootCause().hasMessageContaining("'order_stream' hashes to " + SlotHash.getSlot(foreign))
                .hasMessageContaining("{orders}").hasMessageContaining("name the queue after the stream key");
        assertThat(raw.exists(foreign)).isZero();
    }

    @Test
    void aQueueNamedAfterItsStreamKeyConsumesThatStream() throws Exception {
        if (LeastPrivilegeUser.enabled()) {
            onEveryServer(node -> LeastPrivilegeUser.grantKeys(node, "order_stream", "{order_stream}:dlq"));
        }
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:order_stream?mode=stream&streamKey=order_stream&deadLetterKey={order_stream}:dlq")
                        .process(received::add);
            }
        });
        raw.xadd("order_stream", Map.of("order_id", "9"));

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(Map.class)).containsEntry("order_id", "9");
    }

    /** One queue name per master, so that every master serves a queue. */
    private List<String> queuesOnDistinctMasters() {
        return cluster.masters().stream().map(master -> IntStream.range(0, 1000).mapToObj(i -> "q" + i)
                .filter(q -> cluster.masterOf(key(q, "")) == master).findFirst().orElseThrow()).toList();
    }
}
