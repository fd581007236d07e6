package dev.reliableredis.camel;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Priorities from a route's point of view (list mode): the header on the send, the exchange property on the delivery,
 * never a header there, so that the route's own sends do not inherit the level.
 */
class PriorityRoutesTest extends CamelRedisTestBase {

    private final List<Exchange> forwarded = new CopyOnWriteArrayList<>();

    @Test
    void theHighestLevelIsDeliveredFirstAndCarriesItsLevelAsAPropertyNotAsAHeader() throws Exception {
        template.sendBodyAndHeader("reliable-redis:q", "low", ReliableRedisConstants.PRIORITY, 0);
        template.sendBody("reliable-redis:q", "default");
        template.sendBodyAndHeader("reliable-redis:q", "high", ReliableRedisConstants.PRIORITY, "9");

        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?priorityMode=strict").process(received::add).to("reliable-redis:next");
                from("reliable-redis:next").process(forwarded::add);
            }
        });

        awaitReceived(3);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class))
                .containsExactly("high", "default", "low");
        assertThat(received).extracting(e -> e.getProperty(ReliableRedisConstants.PRIORITY))
                .containsExactly(9, 4, 0);
        assertThat(received).allSatisfy(e -> assertThat(e.getMessage().getHeaders())
                .doesNotContainKey(ReliableRedisConstants.PRIORITY));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15)).until(() -> forwarded.size() == 3);
        assertThat(forwarded).as("the route's sends are of the default level")
                .extracting(e -> e.getProperty(ReliableRedisConstants.PRIORITY)).containsOnly(4);
    }

    @Test
    void aPriorityOutOfRangeOrOnAStreamModeQueueFailsTheExchangeNamingIt() {
        Exchange tooHigh = template.request("reliable-redis:q",
                e -> e.getMessage().setHeaders(Map.of(ReliableRedisConstants.PRIORITY, 10)));
        Exchange onStream = template.request("reliable-redis:s?mode=stream",
                e -> e.getMessage().setHeaders(Map.of(ReliableRedisConstants.PRIORITY, 9)));

        assertThat(tooHigh.getException()).hasMessageContaining(ReliableRedisConstants.PRIORITY)
                .hasMessageContaining("was 10");
        assertThat(onStream.getException()).hasMessageContaining("stream-mode queue 's'");
        assertThat(raw.exists(key("q", "messages"), key("s", "stream"))).isZero();
    }
}
