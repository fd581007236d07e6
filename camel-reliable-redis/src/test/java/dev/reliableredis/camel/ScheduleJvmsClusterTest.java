package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule across JVMs on a Redis Cluster of three masters: three consumer JVMs that declare one every-second
 * schedule for about 20 s fire each tick once (judged by the ticks' ids and first deliveries, not by timing), and
 * go on when one of them is SIGKILLed.
 */
@RedisUnderTest(cluster = true)
class ScheduleJvmsClusterTest extends CamelRedisTestBase {

    /** A short lease, so that a tick the killed JVM held comes back within seconds rather than holding the next. */
    private static final String EVERY_SECOND =
            "reliable-redis:nightly?schedule=*+*+*+*+*+?&visibilityTimeout=2000&reaperInterval=200";

    /** The ticks of the first deliveries of every JVM's tick messages, in the order they ran, checked by their ids. */
    private static List<Long> firstRuns(List<ConsumerJvm> jvms) {
        List<Long> ticks = new ArrayList<>();
        for (ConsumerJvm jvm : jvms) {
            for (String line : jvm.processed()) {
                // PROCESSING nightly@<tick> <delivery count>
                String[] fields = line.split(" ");
                assertThat(fields[1]).startsWith("nightly@");
                if (fields[2].equals("1")) {
                    ticks.add(Long.parseLong(fields[1].substring("nightly@".length())));
                }
            }
        }
        return ticks;
    }

    @Test
    void threeJvmsFireEachTickOnceForTwentySecondsAndGoOnWhenOneIsKilled() throws Exception {
        List<ConsumerJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                jvms.add(ConsumerJvm.start(redisUri(), EVERY_SECOND, "complete"));
            }
            await("10 ticks").atMost(Duration.ofSeconds(60)).until(() -> firstRuns(jvms).size() >= 10);
            jvms.get(0).kill();
            int before = firstRuns(jvms).size();
            await("10 more ticks without the killed JVM").atMost(Duration.ofSeconds(60))
                    .until(() -> firstRuns(jvms).size() >= before + 10);
        } finally {
            for (ConsumerJvm jvm : jvms) {
                jvm.kill();
            }
        }
        List<Long> ticks = firstRuns(jvms).stream().sorted().toList();

        assertThat(ticks).as("each tick delivered first once").doesNotHaveDuplicates();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("one tick after another: %s", ticks).isEqualTo(1_000);
        }
        assertThat(Long.parseLong(raw.hget(key("nightly", "schedule"), "last")))
                .isGreaterThanOrEqualTo(ticks.get(ticks.size() - 1));
    }
}
