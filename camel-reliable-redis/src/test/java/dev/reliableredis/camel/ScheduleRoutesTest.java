package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Schedules from a route's point of view: several CamelContexts declaring one schedule fire each tick once (judged
 * by the ticks' ids and times, not by timing), go on when one stops, and follow a changed expression.
 */
class ScheduleRoutesTest extends CamelRedisTestBase {

    private static final String EVERY_SECOND = "reliable-redis:nightly?schedule=*+*+*+*+*+?";

    /** One run of a tick's message. */
    record Run(String id, long scheduledFor, String body) {
    }

    private final List<Run> runs = new CopyOnWriteArrayList<>();

    private RouteBuilder recording(String uri) {
        return new RouteBuilder() {
            public void configure() {
                from(uri).process(e -> runs.add(run(e)));
            }
        };
    }

    private static Run run(Exchange e) {
        return new Run(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class),
                e.getMessage().getHeader(ReliableRedisConstants.SCHEDULED_FOR, Long.class),
                e.getMessage().getBody(String.class));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> allStats(String endpoint) {
        return template.requestBodyAndHeader("reliable-redis:" + endpoint, null, ReliableRedisConstants.OPERATION,
                "stats", Map.class);
    }

    private static List<Long> ticks(List<Run> runs) {
        return runs.stream().map(Run::scheduledFor).sorted().toList();
    }

    /** Each tick once, under its own id, one period after the one before. */
    private static void assertEachTickOnce(List<Run> runs, String queue, long period) {
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.id()).isEqualTo(queue + "@" + run.scheduledFor());
            assertThat(run.body()).isEmpty();
        });
        List<Long> ticks = ticks(runs);
        assertThat(ticks).doesNotHaveDuplicates();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("ticks %s", ticks).isEqualTo(period);
        }
    }

    @Test
    void threeContextsFireEachTickOnceAndGoOnWhenOneStops() throws Exception {
        List<CamelContext> contexts = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                contexts.add(startedContext(recording(EVERY_SECOND)));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 3);
            contexts.get(0).stop();
            int before = runs.size();
            await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= before + 3);
        } finally {
            contexts.forEach(CamelContext::stop);
        }

        assertEachTickOnce(runs, "nightly", 1_000);
        assertThat(raw.exists(key("nightly", "schedule"))).isEqualTo(1);
    }

    @Test
    void aChangedExpressionTakesEffectOnceAndTheOlderInstanceFollowsIt() throws Exception {
        List<CamelContext> contexts = new ArrayList<>();
        try {
            contexts.add(startedContext(recording(EVERY_SECOND)));
            await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 2);
            contexts.add(startedContext(recording("reliable-redis:nightly?schedule=0/2+*+*+*+*+?")));
            await("the new expression replaces the old one").atMost(Duration.ofSeconds(15))
                    .until(() -> "0/2 * * * * ?".equals(raw.hget(key("nightly", "schedule"), "cron")));
            int before = runs.size();
            await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= before + 4);
        } finally {
            contexts.forEach(CamelContext::stop);
        }

        List<Run> after = runs.subList(runs.size() - 3, runs.size());
        assertEachTickOnce(after, "nightly", 2_000);
        assertThat(ticks(after)).allMatch(tick -> tick % 2_000 == 0);
        assertThat(ticks(runs)).doesNotHaveDuplicates();
    }

    @Test
    void inStreamModeATickIsAMessageOfItsOwnAndUnscheduleRemovesTheSchedule() throws Exception {
        routes(recording("reliable-redis:reports?mode=stream&schedule=*+*+*+*+*+?"));

        await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 2);
        assertEachTickOnce(runs.subList(0, 2), "reports", 1_000);

        assertThat(allStats("reports?mode=stream").get("nextTick")).isInstanceOf(Long.class)
                .satisfies(next -> assertThat((Long) next).isGreaterThan(runs.get(1).scheduledFor()));

        assertThat(template.requestBodyAndHeader("reliable-redis:reports?mode=stream", null,
                ReliableRedisConstants.OPERATION, "unschedule", Boolean.class)).isTrue();
        assertThat(raw.exists(key("reports", "schedule"))).isZero();
        assertThat(allStats("reports?mode=stream")).doesNotContainKey("nextTick");
    }

    @Test
    void aBadExpressionOrTimeZoneFailsTheRouteNamingIt() {
        assertThatThrownBy(() -> routes(recording("reliable-redis:q?schedule=every+night")))
                .hasStackTraceContaining("schedule 'every night' is not a Quartz cron expression");
        assertThatThrownBy(() -> routes(recording("reliable-redis:q?schedule=0+0+2+*+*+?&scheduleTimeZone=Mars")))
                .hasStackTraceContaining("scheduleTimeZone 'Mars'");
        assertThat(raw.exists(key("q", "schedule"))).isZero();
    }
}
