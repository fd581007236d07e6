package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Micrometer meters, read from a SimpleMeterRegistry in the Camel registry. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class MetricsTest extends CamelRedisTestBase {

    private final MeterRegistry meters = new SimpleMeterRegistry();

    @BeforeEach
    void bindRegistry() {
        context.getRegistry().bind("metricsRegistry", meters);
    }

    @Test
    void countsOutcomesTimesRoundTripsAndGaugesTheQueue() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&maxRetries=1&retryDelay=10").routeId("consume")
                        .filter(body().isEqualTo("bad")).throwException(new IllegalStateException("bad"));
            }
        });
        send("q", "good");
        send("q", "bad");
        send("q", "good", java.util.Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "once"));
        send("q", "good", java.util.Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "once"));
        awaitStats("q", 0, 0, 0, 1);

        Tags queue = Tags.of("queue", "q", "mode", mode);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(count("reliable.redis.messages.delivered", queue)).isEqualTo(4);
            assertThat(count("reliable.redis.messages.settled", queue.and("outcome", "acked"))).isEqualTo(2);
            assertThat(count("reliable.redis.messages.settled", queue.and("outcome", "retried"))).isEqualTo(1);
            assertThat(count("reliable.redis.messages.settled", queue.and("outcome", "retried_after"))).isZero();
            assertThat(count("reliable.redis.messages.settled", queue.and("outcome", "dead_lettered"))).isEqualTo(1);
            assertThat(count("reliable.redis.messages.settled", queue.and("outcome", "refused"))).isZero();
            assertThat(count("reliable.redis.messages.sent", queue.and("result", "stored"))).isEqualTo(3);
            assertThat(count("reliable.redis.messages.sent", queue.and("result", "duplicate"))).isEqualTo(1);
            assertThat(gauge(queue.and("state", "dead"))).isEqualTo(1);
            assertThat(gauge(queue.and("state", "ready"))).isZero();
            assertThat(meters.get("reliable.redis.queue.oldest.age").tags(queue.and("state", "ready")).timeGauge()
                    .value(TimeUnit.MILLISECONDS)).isZero();
            for (String held : List.of("paused", "capped", "rate.limited")) {
                assertThat(meters.get("reliable.redis.queue." + held).tags(queue).gauge().value()).as(held).isZero();
            }
        });
        assertThat(meters.get("reliable.redis.round.trip").tags(queue.and("operation", "enqueue")).timer().count())
                .isBetween(1L, 4L);
        assertThat(meters.get("reliable.redis.round.trip").tags(queue.and("operation", "ack")).timer().count())
                .isBetween(1L, 2L);
        assertThat(meters.get("reliable.redis.round.trip").tags(queue.and("operation", "nack")).timer().count())
                .isBetween(1L, 2L);
    }

    @Test
    void theQueuesMetersGoWithItsLastEndpoint() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).routeId("consume").log("${body}");
            }
        });
        send("q", "one");
        assertThat(meters.find("reliable.redis.queue.messages").tags("queue", "q").gauges()).hasSize(4);
        assertThat(meters.find("reliable.redis.queue.oldest.age").tags("queue", "q").timeGauges()).hasSize(2);

        context.getRouteController().stopRoute("consume");
        context.removeRoute("consume");
        context.removeEndpoints("reliable-redis:*");

        assertThat(meters.find("reliable.redis.queue.messages").tags("queue", "q").gauges()).isEmpty();
        assertThat(meters.find("reliable.redis.messages.delivered").meters()).isEmpty();
    }

    @Test
    void theAgeOfTheOldestReadyMessageGrowsWhileItWaits() {
        send("q", "waits");

        await().atMost(Duration.ofSeconds(5)).until(() -> meters.get("reliable.redis.queue.oldest.age")
                .tags("queue", "q", "state", "ready").timeGauge().value(TimeUnit.MILLISECONDS) >= 200);
        assertThat(meters.get("reliable.redis.queue.oldest.age").tags("queue", "q", "state", "inflight").timeGauge()
                .value(TimeUnit.MILLISECONDS)).isZero();
    }

    @Test
    void queuesOfTwoKeyPrefixesHaveMetersOfTheirOwn() throws Exception {
        send("q", "one");
        template.sendBody("reliable-redis:q?mode=" + mode + "&keyPrefix=other", "two");
        template.sendBody("reliable-redis:q?mode=" + mode + "&keyPrefix=other", "three");

        assertThat(gauge(Tags.of("keyPrefix", "rr", "queue", "q", "state", "ready"))).isEqualTo(1);
        assertThat(gauge(Tags.of("keyPrefix", "other", "queue", "q", "state", "ready"))).isEqualTo(2);

        context.removeEndpoints("reliable-redis:q?mode=" + mode + "&keyPrefix=other");
        assertThat(meters.find("reliable.redis.queue.messages").tags("keyPrefix", "other").gauges()).isEmpty();
        assertThat(gauge(Tags.of("keyPrefix", "rr", "queue", "q", "state", "ready"))).isEqualTo(1);
    }

    private double count(String name, Tags tags) {
        return meters.get(name).tags(tags).functionCounter().count();
    }

    private double gauge(Tags tags) {
        return meters.get("reliable.redis.queue.messages").tags(tags).gauge().value();
    }
}
