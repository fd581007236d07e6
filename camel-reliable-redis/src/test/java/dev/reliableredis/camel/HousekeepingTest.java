package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The reaper keeps pace with the load: what it must clean up does not pile up faster than it works. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class HousekeepingTest extends CamelRedisTestBase {

    private static final int RATE = 2_000;
    private static final long WINDOW_MS = 2_000;
    /** Three windows' worth. */
    private static final int MESSAGES = (int) (3 * RATE * WINDOW_MS / 1000);

    /**
     * The rate is what the consumer acked in the window before each look at the acked set, so that the bursts of a
     * load generator sharing two cores with Redis and the consumer do not count against the reaper.
     */
    @Test
    void underASustainedLoadTheAckedIdsStayWithinOneAndAHalfTimesRateTimesWindow() throws Exception {
        AtomicInteger acked = new AtomicInteger();
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:busy?mode=" + mode + "&idempotencyWindow=" + WINDOW_MS + "&reaperInterval=200"
                     + "&concurrentConsumers=8&maxMessagesPerPoll=50").process(e -> acked.incrementAndGet());
            }
        });
        List<long[]> looks = new CopyOnWriteArrayList<>();
        AtomicInteger sent = new AtomicInteger();
        ScheduledExecutorService load = Executors.newScheduledThreadPool(2);
        try {
            // 20 sends every 10 ms for three windows; the acked set and the acks so far looked at meanwhile
            var sending = load.scheduleAtFixedRate(() -> {
                for (int i = 0; i < RATE / 100 && sent.get() < MESSAGES; i++) {
                    template.sendBody("reliable-redis:busy?mode=" + mode, "x");
                    sent.incrementAndGet();
                }
            }, 0, 10, TimeUnit.MILLISECONDS);
            var looking = load.scheduleAtFixedRate(() -> looks.add(new long[] {System.nanoTime(), acked.get(),
                    raw.zcard(key("busy", "acked"))}), 0, 50, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> sent.get() == MESSAGES);
            sending.cancel(false);
            awaitStats("busy", 0, 0, 0, 0);
            looking.cancel(false);
        } finally {
            load.shutdownNow();
        }

        long windowNanos = TimeUnit.MILLISECONDS.toNanos(WINDOW_MS);
        long steady = looks.get(0)[0] + windowNanos;
        int checked = 0;
        for (long[] look : looks) {
            if (look[0] < steady) {
                continue;
            }
            long windowStart = look[0] - windowNanos;
            long ackedBefore = looks.stream().filter(l -> l[0] <= windowStart).mapToLong(l -> l[1]).max().orElse(0);
            long inWindow = look[1] - ackedBefore;
            assertThat(look[2]).as("acked set with %d acks in the last window", inWindow)
                    .isLessThanOrEqualTo((long) (1.5 * inWindow));
            checked++;
        }
        assertThat(checked).as("looks after the first window").isGreaterThan(40);
        assertThat(acked.get()).isEqualTo(MESSAGES);
    }

    @Test
    void fiftyThousandDueDelayedMessagesAreAllReadyWithinSeconds() throws Exception {
        int messages = 50_000;
        ClientResources resources = RedisGateway.newClientResources();
        try (RedisGateway gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(10))) {
            QueueSettings settings = QueueSettings.defaults();
            StreamOptions options = streamMode() ? new StreamOptions(null, null, "camel", "0", "loader", 0, true) : null;
            // as an endpoint does before its first send
            Queues.shardCount(gateway, "rr", "later", 1, options).check();
            ReliableQueue queue = streamMode() ? StreamQueue.of(gateway, "rr", "later", options, settings)
                    : ListQueue.of(gateway, "rr", "later", settings);
            ExecutorService loaders = Executors.newFixedThreadPool(8);
            List<Future<?>> loading = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int first = t;
                loading.add(loaders.submit(() -> {
                    for (int i = first; i < messages; i += 8) {
                        queue.enqueue(new NewMessage("m" + i, "x".getBytes(), null, 1));
                    }
                }));
            }
            for (Future<?> f : loading) {
                f.get(2, TimeUnit.MINUTES);
            }
            loaders.shutdown();
        } finally {
            resources.shutdown();
        }
        assertThat(stats("later").get("delayed")).isEqualTo(messages);

        CountDownLatch release = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                // one thread, held by a batch of one: the messages the reaper releases stay ready
                from("reliable-redis:later?mode=" + mode + "&maxMessagesPerPoll=1")
                        .process(e -> release.await(60, TimeUnit.SECONDS));
            }
        });
        try {
            await("every delayed message released").atMost(Duration.ofSeconds(20))
                    .until(() -> stats("later").get("delayed") == 0);
            assertThat(stats("later")).containsEntry("ready", messages - 1L).containsEntry("inflight", 1L);
        } finally {
            release.countDown();
        }
    }
}
