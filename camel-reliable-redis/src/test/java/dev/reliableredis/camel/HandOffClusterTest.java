package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.Range;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * exactlyOnce=true on a Redis Cluster of three masters: a queue hands off within its own slot, and queues of one
 * slotGroup to each other; a send to a queue in another slot goes out at once, under its derived id, and is enqueued
 * once however often the route runs, unless the target names a slot group, which fails the exchange.
 */
@RedisUnderTest(cluster = true)
class HandOffClusterTest extends CamelRedisTestBase {

    /** What each attempt saw of the message it sends, in the order they looked. */
    private final List<Boolean> sentBefore = new CopyOnWriteArrayList<>();
    /** The bodies the route received, in order (it changes the exchange's body after it). */
    private final List<String> bodies = new CopyOnWriteArrayList<>();

    @Test
    void aQueueHandsOffToItselfInItsOwnSlotOnceTheAttemptCompletes() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=2&retryDelay=10")
                        .process(e -> bodies.add(e.getMessage().getBody(String.class))).process(received::add)
                        .filter(body().isEqualTo("first"))
                        .process(e -> sentBefore.add(raw.hexists(key("a", "messages"),
                                e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID) + "/a/0")))
                        .setBody(constant("second")).to("reliable-redis:a?exactlyOnce=true")
                        .process(failingTheFirstDelivery("after the send"));
            }
        });

        String id = send("a", "first");

        awaitReceived(3);
        assertThat(received.get(2).getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo(id + "/a/0");
        assertThat(sentBefore).as("held until the ack").containsExactly(false, false);
        awaitStats("a", 0, 0, 0, 0);
        assertThat(bodies).containsExactly("first", "first", "second");
    }

    @Test
    void aSendToAQueueInAnotherSlotGoesOutAtOnceUnderItsDerivedIdOnce() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=2&retryDelay=10").to("reliable-redis:b?exactlyOnce=true")
                        .process(failingTheFirstDelivery("after the send")).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        awaitStats("a", 0, 0, 0, 0);
        await().atMost(Duration.ofSeconds(15)).until(() -> raw.llen(key("b", "ready")) == 1);
        assertThat(raw.lrange(key("b", "ready"), 0, -1)).containsExactly(id + "/b/0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void queuesOfOneSlotGroupHandOffToEachOtherOnceTheAttemptCompletes(String mode) throws Exception {
        String flow = "?slotGroup=flow&mode=" + mode;
        boolean list = "list".equals(mode);
        String target = list ? "rr:{flow}:{b}:ready" : "rr:{flow}:{b}:stream";
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a" + flow + "&maxRetries=2&retryDelay=10")
                        .process(e -> sentBefore.add(raw.exists(target) > 0))
                        .to("reliable-redis:b" + flow + "&exactlyOnce=true")
                        .process(failingTheFirstDelivery("after the send")).process(received::add);
            }
        });

        String id = template.request("reliable-redis:a" + flow, e -> e.getMessage().setBody("order 1")).getMessage()
                .getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);

        awaitReceived(1);
        assertThat(sentBefore).as("held until the ack").containsExactly(false, false);
        await().atMost(Duration.ofSeconds(15)).until(() -> raw.exists(target) > 0);
        assertThat(list ? raw.lrange(target, 0, -1)
                : raw.xrange(target, Range.create("-", "+")).stream().map(e -> e.getBody().get("id")).toList())
                .containsExactly(id + "/b/0");
    }

    @Test
    void aSendToAQueueOfASlotGroupTheConsumedQueueIsNotInFailsTheExchangeNamingBoth() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=0").to("reliable-redis:b?slotGroup=flow&exactlyOnce=true");
            }
        });

        String id = send("a", "order 1");

        awaitStats("a", 0, 0, 0, 1);
        assertThat(failureOf("a", id)).contains("queue 'b' of slotGroup 'flow'").contains("from queue 'a'")
                .contains("set slotGroup=flow on the endpoints of queue 'a'");
        assertThat(raw.exists("rr:{flow}:{b}:ready", "rr:{b}:ready")).isZero();
    }
}
