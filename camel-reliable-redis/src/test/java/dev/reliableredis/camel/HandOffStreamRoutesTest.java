package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.Range;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * exactlyOnce=true between stream-mode queues on one Redis: what a route sends is added to the target stream by the
 * ack of the entry it consumed, and by nothing else: not by a failed attempt, nor by a consumer JVM killed mid-route.
 */
class HandOffStreamRoutesTest extends CamelRedisTestBase {

    private static final String TO_B = "reliable-redis:b?mode=stream&exactlyOnce=true";

    {
        mode = "stream";
    }

    /** How many entries b's stream held when each attempt looked, in the order they looked. */
    private final List<Long> seenInB = new CopyOnWriteArrayList<>();

    private List<String> idsIn(String queue) {
        return raw.xrange(key(queue, "stream"), Range.create("-", "+")).stream().map(e -> e.getBody().get("id"))
                .toList();
    }

    @Test
    void aFailedAttemptAddsNothingAndTheAttemptThatCompletesAddsOnce() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?mode=stream&maxRetries=2&retryDelay=10").to(TO_B).process(e -> {
                    seenInB.add(raw.xlen(key("b", "stream")));
                    if (e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) == 1) {
                        throw new IllegalStateException("after the send");
                    }
                }).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        await().atMost(Duration.ofSeconds(15)).until(() -> idsIn("b").equals(List.of(id + "/b/0")));
        assertThat(received.get(0).getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo(id + "/b/0");
        assertThat(seenInB).as("held until the ack").containsExactly(0L, 0L);
        assertThat(bodyOf("b", id + "/b/0")).isEqualTo("order 1");
        awaitStats("a", 0, 0, 0, 0);
    }

    @Test
    void aConsumerJvmKilledMidRouteAddsNothingAndTheRedeliveryAddsOnce() throws Exception {
        String endpoint = "reliable-redis:a?mode=stream&visibilityTimeout=1500&reaperInterval=100";
        String id = send("a", "order 1");
        ConsumerJvm victim = ConsumerJvm.start(redisUri(), endpoint, "hang-after:" + TO_B);
        try {
            await("the victim sent and hangs").atMost(Duration.ofSeconds(30)).until(() -> !victim.processed().isEmpty());
        } finally {
            victim.kill();
        }
        assertThat(raw.exists(key("b", "stream"))).isZero();

        routes(new RouteBuilder() {
            public void configure() {
                from(endpoint).to(TO_B).process(received::add);
            }
        });

        awaitReceived(1);
        await().atMost(Duration.ofSeconds(15)).until(() -> idsIn("b").equals(List.of(id + "/b/0")));
    }
}
