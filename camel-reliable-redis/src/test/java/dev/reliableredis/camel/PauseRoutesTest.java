package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.Range;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue paused and resumed from a third CamelContext while two others consume it, each with two consumer threads.
 * That nothing is claimed while paused is judged by Redis: every consumer thread has claimed since the pause began
 * (the claimers set records each claim's time, the paused key the pause's) and the queue still holds every message
 * sent meanwhile, none in flight.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class PauseRoutesTest extends CamelRedisTestBase {

    private static final long POLL_TIMEOUT = 500;
    private static final int THREADS_PER_CONTEXT = 2;

    private final List<CamelContext> consumers = new ArrayList<>();
    /** Redis server time (ms) at which each exchange ran. */
    private final List<Long> ranAt = new CopyOnWriteArrayList<>();

    @BeforeEach
    void twoConsumingContexts() throws Exception {
        for (int i = 0; i < 2; i++) {
            consumers.add(startedContext(new RouteBuilder() {
                public void configure() {
                    from(uri() + "&concurrentConsumers=" + THREADS_PER_CONTEXT + "&pollTimeout=" + POLL_TIMEOUT)
                            .routeId("work").process(e -> {
                                ranAt.add(redisNow());
                                received.add(e);
                            });
                }
            }));
        }
    }

    @AfterEach
    void stopConsumers() {
        consumers.forEach(CamelContext::stop);
    }

    @Test
    void nothingIsClaimedFromThePauseUntilTheResumeWhichRestartsEveryConsumerAtOnce() throws Exception {
        sendMany(10);
        awaitReceived(10);

        assertThat(operation("pause")).as("until resumed").isEqualTo(0L);
        long pausedAt = Long.parseLong(raw.get(key("work", "paused")));
        sendMany(10);

        awaitEveryThreadClaimedSince(pausedAt);
        assertThat(stats("work")).containsEntry("ready", 10L).containsEntry("inflight", 0L);
        assertThat(received).hasSize(10);

        // a consumer restarted while paused stays paused
        consumers.get(0).getRouteController().stopRoute("work");
        consumers.get(0).getRouteController().startRoute("work");
        awaitEveryThreadClaimedSince(redisNow());
        assertThat(stats("work")).containsEntry("ready", 10L).containsEntry("inflight", 0L);

        assertThat(operation("resume")).as("it was paused").isEqualTo(true);

        awaitReceived(20);
        awaitStats("work", 0, 0, 0, 0);
        long resumedAt = resumeTime();
        assertThat(ranAt.subList(10, 20)).allSatisfy(at -> assertThat(at).isGreaterThanOrEqualTo(resumedAt));
    }

    @Test
    void aPauseWithADurationEndsByItselfOnTheRedisClock() throws Exception {
        Object body = template.requestBodyAndHeaders(uri(), null, Map.of(
                ReliableRedisConstants.OPERATION, "pause", ReliableRedisConstants.PAUSE_DURATION, 5_000L));
        assertThat(body).isEqualTo(5_000L);
        long pausedAt = Long.parseLong(raw.get(key("work", "paused")));
        assertThat(raw.pttl(key("work", "paused"))).isBetween(1L, 5_000L);
        sendMany(5);

        awaitEveryThreadClaimedSince(pausedAt);
        assertThat(received).isEmpty();

        awaitReceived(5);
        assertThat(ranAt).allSatisfy(at -> assertThat(at).isGreaterThanOrEqualTo(pausedAt + 5_000));
        assertThat(paused("work")).isFalse();
    }

    @Test
    void aNegativeDurationFailsThePauseNamingTheQueueAndPausesNothing() {
        Exchange refused = template.request(uri(), e -> {
            e.getMessage().setHeader(ReliableRedisConstants.OPERATION, "pause");
            e.getMessage().setHeader(ReliableRedisConstants.PAUSE_DURATION, -5L);
        });

        assertThat(refused.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-5").hasMessageContaining("'work'");
        assertThat(paused("work")).isFalse();
    }

    @Test
    void aPauseOfMoreThanFourteenDaysOrNotAWholeNumberOfMillisecondsIsRefusedAndPausesNothing() {
        for (Object bad : List.of(Long.MAX_VALUE, Duration.ofDays(14).toMillis() + 1, Double.NaN, 0.5, "a while")) {
            Exchange refused = template.request(uri(), e -> {
                e.getMessage().setHeader(ReliableRedisConstants.OPERATION, "pause");
                e.getMessage().setHeader(ReliableRedisConstants.PAUSE_DURATION, bad);
            });

            assertThat(refused.getException()).as("pause of " + bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(ReliableRedisConstants.PAUSE_DURATION).hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("14 days");
            assertThat(paused("work")).isFalse();
        }
    }

    private String uri() {
        return "reliable-redis:work?mode=" + mode;
    }

    private Object operation(String name) {
        return template.requestBodyAndHeader(uri(), null, ReliableRedisConstants.OPERATION, name);
    }

    private void sendMany(int count) {
        for (int i = 0; i < count; i++) {
            send("work", "m" + i);
        }
    }

    /**
     * Waits until each of the consumer threads has claimed since {@code since} (Redis time): the claimers set scores
     * each thread by its last claim plus two poll timeouts.
     */
    private void awaitEveryThreadClaimedSince(long since) {
        String claimers = streamMode() ? key("work", "group:camel:claimers") : key("work", "claimers");
        await("every consumer thread claimed since " + since).atMost(Duration.ofSeconds(15))
                .until(() -> raw.zcount(claimers, Range.create((double) (since + 2 * POLL_TIMEOUT),
                        Double.POSITIVE_INFINITY)) >= 2L * THREADS_PER_CONTEXT);
    }

    /** The server time of the last resume: its entry id in the resumed stream. */
    private long resumeTime() {
        String id = raw.xrevrange(key("work", "resumed"), Range.create("-", "+")).get(0).getId();
        return Long.parseLong(id.substring(0, id.indexOf('-')));
    }

    private long redisNow() {
        List<String> time = raw.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
