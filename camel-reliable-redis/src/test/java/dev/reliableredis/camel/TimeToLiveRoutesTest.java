package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import io.lettuce.core.Range;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The time to live, from the producer option and the header: a message not claimed in time never reaches the route;
 * it reaches the dead-letter consumer with a failure starting with 'expired', or is dropped.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class TimeToLiveRoutesTest extends CamelRedisTestBase {

    private final List<Exchange> dead = new CopyOnWriteArrayList<>();

    /**
     * Sends two messages that live 1 ms and one that lives an hour, then waits until the Redis clock is past the short
     * ones' expiries, before any consumer starts.
     */
    private void sendAndLetExpire(String producerUri) {
        template.sendBodyAndHeader(producerUri, "header wins", ReliableRedisConstants.TIME_TO_LIVE, 1L);
        template.sendBody(producerUri, "option");
        template.sendBodyAndHeader(producerUri, "lives", ReliableRedisConstants.TIME_TO_LIVE, 3_600_000L);
        long sentBy = redisTime();
        long shortOnesEnd = expiries().mapToLong(Long::parseLong).filter(ends -> ends <= sentBy + 1).max()
                .orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> redisTime() > shortOnesEnd);
    }

    /** When the queue's messages with a time to live expire: the extras hash in list mode, a field in stream mode. */
    private Stream<String> expiries() {
        if (!streamMode()) {
            return raw.hvals(key("q", "extras")).stream().map(extras -> extras.substring(0, extras.indexOf('|')));
        }
        return raw.xrange(key("q", "stream"), Range.create("-", "+")).stream()
                .map(entry -> entry.getBody().get("expires")).filter(ends -> ends != null);
    }

    private long redisTime() {
        List<String> time = raw.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Test
    void anExpiredMessageGoesToTheDeadLettersWithItsReasonAndNeverToTheRoute() throws Exception {
        sendAndLetExpire("reliable-redis:q?timeToLive=1&mode=" + mode);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
                from("reliable-redis:q?consumeDeadLetters=true&mode=" + mode).process(dead::add);
            }
        });

        awaitReceived(1);
        await().atMost(Duration.ofSeconds(15)).until(() -> dead.size() >= 2);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactly("lives");
        assertThat(dead).extracting(e -> e.getMessage().getBody(String.class))
                .containsExactlyInAnyOrder("header wins", "option");
        assertThat(dead).allSatisfy(e -> assertThat(e.getMessage().getHeader(ReliableRedisConstants.FAILURE,
                String.class)).startsWith("expired: its time to live ended at "));
        awaitStats("q", 0, 0, 0, 0);
    }

    @Test
    void withExpiredMessagesDropAnExpiredMessageIsGone() throws Exception {
        sendAndLetExpire("reliable-redis:q?timeToLive=1&mode=" + mode);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?expiredMessages=drop&mode=" + mode).process(received::add);
            }
        });

        awaitReceived(1);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactly("lives");
        assertThat(streamMode() ? raw.xlen(key("q", "stream")) : raw.hlen(key("q", "messages"))).isZero();
    }
}
