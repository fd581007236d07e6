package dev.reliableredis.camel;

import java.util.List;
import java.util.Map;

import org.apache.camel.Exchange;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The endpoint as Camel's browse tools see it: ready messages, or dead letters, without claiming them. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BrowseEndpointTest extends CamelRedisTestBase {

    @Test
    void showsReadyMessagesOldestFirstWithTheirHeadersUpToTheLimitAndClaimsNone() {
        for (int i = 0; i < 5; i++) {
            send("q", "m" + i, Map.of("orderId", 1000L + i));
        }
        BrowsableEndpoint endpoint = context.getEndpoint("reliable-redis:q?mode=" + mode + "&browseLimit=3",
                BrowsableEndpoint.class);

        List<Exchange> exchanges = endpoint.getExchanges();

        assertThat(exchanges).extracting(e -> e.getIn().getBody(String.class)).containsExactly("m0", "m1", "m2");
        Exchange first = exchanges.get(0);
        assertThat(first.getIn().getHeader("orderId")).isEqualTo(1000L);
        assertThat(first.getIn().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class)).isNotBlank();
        assertThat(first.getIn().getHeader(ReliableRedisConstants.QUEUE)).isEqualTo("q");
        assertThat(endpoint.getExchanges(2, null)).hasSize(2);
        assertThat(endpoint.getExchanges(50, e -> ((Exchange) e).getIn().getBody(String.class).equals("m1")))
                .singleElement().satisfies(e -> assertThat(e.getIn().getBody(String.class)).isEqualTo("m1"));
        assertThat(stats("q")).containsEntry("ready", 5L).containsEntry("inflight", 0L);
    }

    @Test
    void aDeadLetterEndpointShowsDeadLettersWithTheirFailure() throws Exception {
        alwaysFailingRoute("consume", "reliable-redis:q?mode=" + mode + "&maxRetries=0", "no stock");
        send("q", "order 1");
        awaitStats("q", 0, 0, 0, 1);

        List<Exchange> dead = context.getEndpoint("reliable-redis:q?mode=" + mode + "&consumeDeadLetters=true",
                BrowsableEndpoint.class).getExchanges();

        assertThat(dead).singleElement().satisfies(e -> {
            assertThat(e.getIn().getBody(String.class)).isEqualTo("order 1");
            assertThat(e.getIn().getHeader(ReliableRedisConstants.FAILURE, String.class)).contains("no stock");
            assertThat(e.getIn().getHeader(ReliableRedisConstants.DELIVERY_COUNT)).isEqualTo(1);
        });
        assertThat(stats("q")).containsEntry("dead", 1L).containsEntry("inflight", 0L);
    }

    @Test
    void aWaitingRequestIsShownWithoutItsReplyAddress() {
        template.asyncRequestBody("reliable-redis:q?requestReply=true&requestTimeout=5000&mode=" + mode, "question");
        awaitStats("q", 1, 0, 0, 0);

        List<Exchange> waiting = context.getEndpoint("reliable-redis:q?mode=" + mode, BrowsableEndpoint.class)
                .getExchanges();

        assertThat(waiting).singleElement().satisfies(e -> {
            assertThat(e.getIn().getBody(String.class)).isEqualTo("question");
            assertThat(e.getIn().getHeaders()).doesNotContainKey("CamelReliableRedisReplyTo");
        });
    }

    @Test
    void aMalformedMessageIsShownWithWhatIsWrongAmongTheOthers() {
        send("q", "first");
        if (streamMode()) {
            raw.xadd(key("q", "stream"), "body", "broken", "id", "forged", "expires", "tomorrow");
        } else {
            raw.hset(key("q", "messages"), send("q", "broken"), "1700000000000|x|{}broken");
        }
        send("q", "last");

        List<Exchange> exchanges = context.getEndpoint("reliable-redis:q?mode=" + mode, BrowsableEndpoint.class)
                .getExchanges();

        assertThat(exchanges).extracting(e -> e.getIn().getHeader(ReliableRedisConstants.FAILURE, String.class))
                .containsExactly(null, streamMode() ? "malformed record: expires 'tomorrow' is not a number"
                        : "malformed record: headers length 'x' is not a number", null);
        assertThat(exchanges).extracting(e -> e.getIn().getBody(String.class)).containsExactly("first",
                streamMode() ? "broken" : "1700000000000|x|{}broken", "last");
    }

    @Test
    void aBrowseLimitOutOfRangeIsRefusedWithItsName() {
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:q?mode=" + mode + "&browseLimit=1001"))
                .hasStackTraceContaining("browseLimit must be between 1 and 1000, was 1001");
    }
}
