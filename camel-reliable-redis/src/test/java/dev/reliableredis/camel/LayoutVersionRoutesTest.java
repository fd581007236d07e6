package dev.reliableredis.camel;

import dev.reliableredis.queue.keys.QueueLayout;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An endpoint records the engine's layout version in a new queue, and refuses one whose keys another version wrote:
 * its sends fail naming what Redis has, and a consumer route does not start.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class LayoutVersionRoutesTest extends CamelRedisTestBase {

    @Test
    void aSendRecordsTheVersionOfANewQueue() {
        send("orders", "first");

        assertThat(raw.hget(key("orders", "meta"), "layout")).isEqualTo(QueueLayout.VERSION);
    }

    @Test
    void aQueueOfAnotherVersionIsRefusedBySendsAndConsumersAndLeftAsItIs() {
        send("orders", "first");
        raw.hset(key("orders", "meta"), "layout", "1.5");

        // another endpoint of the queue: the first one checked before the record changed
        Exchange refused = template.request("reliable-redis:orders?mode=" + mode + "&keyPrefix=rr",
                e -> e.getMessage().setBody("second"));
        assertThat(refused.getException()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Queue 'orders' has layout version 1.5 (" + key("orders", "meta") + ")")
                .hasMessageContaining("drain the queue");
        assertThatThrownBy(() -> routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=" + mode + "&keyPrefix=rr&concurrentConsumers=2")
                        .process(received::add);
            }
        })).hasStackTraceContaining("has layout version 1.5");
        assertThat(received).isEmpty();
        assertThat(streamMode() ? raw.xlen(key("orders", "stream")) : raw.hlen(key("orders", "messages")))
                .as("the message the first endpoint sent").isEqualTo(1);
    }
}
