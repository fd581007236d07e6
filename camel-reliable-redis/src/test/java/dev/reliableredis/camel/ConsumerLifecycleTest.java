package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.testsupport.CommandStats;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.Exchange;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** How the consumer claims, waits, shuts down and lives through Redis outages. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ConsumerLifecycleTest extends CamelRedisTestBase {

    @Test
    void aWaitingConsumerIsWokenByANewMessageRatherThanByItsFallbackPoll() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&pollTimeout=30s").routeId("idle").process(received::add);
            }
        });
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("idle").getConsumer();
        awaitWaitingConsumers(1);
        long sent = System.nanoTime();

        send("q", "wake up");

        awaitReceived(1);
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(3));
        assertThat(consumer.getInflightCount()).isZero();
    }

    @Test
    void anArrivalWakesOneOfEightIdleConsumersAndCostsTwoScriptCalls() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                // no reaper rounds, no fallback claims and no lease extensions (every visibilityTimeout / 3: the
                // sends, each awaited, take about 10 s) while the test counts; one thread each, so
                // maxMessagesPerPoll only tells the endpoints apart
                for (int i = 1; i <= 8; i++) {
                    from("reliable-redis:q?mode=" + mode + "&reaperInterval=1m&pollTimeout=1m&visibilityTimeout=10m"
                         + "&maxMessagesPerPoll=" + i)
                            .process(received::add);
                }
            }
        });
        awaitWaitingConsumers(8);
        int messages = 100;
        // the sending endpoint's first call checks the queue's shard count, once
        stats("q");
        long before = CommandStats.scriptRuns(raw);

        for (int i = 1; i <= messages; i++) {
            send("q", "m" + i);
            awaitReceived(i);
        }
        await("every ack landed").atMost(Duration.ofSeconds(10)).until(() -> raw.zcard(key("q", "acked")) == messages);

        long claimsAndAcks = CommandStats.scriptRuns(raw) - before - messages;
        assertThat(claimsAndAcks).as("claim and ack script calls for %d messages", messages)
                .isLessThanOrEqualTo(2L * messages);
    }

    /** Waits until this many consumers wait for arrivals in a blocking command. */
    private void awaitWaitingConsumers(int consumers) {
        String waiting = streamMode() ? "cmd=xreadgroup" : "cmd=blpop";
        await(consumers + " waiting consumers").atMost(Duration.ofSeconds(10))
                .until(() -> raw.clientList().split(waiting, -1).length - 1 == consumers);
    }

    @Test
    void onShutdownExchangesInFlightFinishAndAreAcked() throws Exception {
        // shorter than the exchanges run after shutdown begins: the consumer must wait as long as Camel does
        context.getExecutorServiceManager().setShutdownAwaitTermination(100);
        CountDownLatch release = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                // batches of one: each thread holds one of the two, whatever the order the threads first claim in
                from("reliable-redis:q?mode=" + mode + "&concurrentConsumers=2&maxMessagesPerPoll=1").process(e -> {
                    received.add(e);
                    release.await(10, TimeUnit.SECONDS);
                });
            }
        });
        String first = send("q", "a");
        String second = send("q", "b");
        awaitReceived(2);

        Thread stopper = new Thread(context::stop);
        stopper.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> context.getStatus() == ServiceStatus.Stopping);
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);
        release.countDown();
        stopper.join(20_000);

        assertThat(context.getStatus()).isEqualTo(ServiceStatus.Stopped);
        assertThat(streamMode() ? raw.xpending(key("q", "stream"), "camel").getCount() : raw.zcard(key("q", "inflight")))
                .isZero();
        assertThat(raw.zscore(key("q", "acked"), first)).isNotNull();
        assertThat(raw.zscore(key("q", "acked"), second)).isNotNull();
    }

    @Test
    void aRouteWhoseRedisIsDownStartsLogsTheOutageOnceAndConsumesWhenRedisAnswers() throws Exception {
        RedisProcess late = RedisProcess.onFreePort("--requirepass", "hunter2");
        String uri = "reliable-redis:outage-q-" + mode + "?mode=" + mode + "&redisUri=RAW(redis://:hunter2@127.0.0.1:" + late.port() + ")";
        routes(new RouteBuilder() {
            public void configure() {
                from(uri).routeId("outage").process(received::add);
            }
        });
        assertThat(context.getRouteController().getRouteStatus("outage")).isEqualTo(ServiceStatus.Started);
        await().atMost(Duration.ofSeconds(10)).until(() -> log().contains("attempt 3"));

        try (late) {
            late.launch();
            template.sendBody(uri, "after the outage");
            awaitReceived(1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> log().contains("Redis calls for queue 'outage-q-" + mode + "' succeed again"));

            assertThat(TestLog.occurrences("Redis calls for queue 'outage-q-" + mode + "' fail")).isEqualTo(1);
            assertThat(log()).doesNotContain("hunter2");
        }
    }

    @Test
    void aWrongPasswordIsLoggedAsAnAuthenticationFailure() throws Exception {
        try (RedisProcess locked = RedisProcess.start("--requirepass", "right")) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:auth-q-" + mode + "?mode=" + mode + "&password=wrong&redisUri=" + locked.uri()).process(received::add);
                }
            });

            await().atMost(Duration.ofSeconds(10)).until(() -> log().contains(
                    "Redis calls for queue 'auth-q-" + mode + "' fail: authentication failed (check username and password)"));
            assertThat(log()).doesNotContain("password=wrong");
        }
    }

    @Test
    void eachOutageGoesOnceToTheBridgedErrorHandler() throws Exception {
        List<Exchange> errors = new CopyOnWriteArrayList<>();
        String queue = "bridge-q-" + mode;
        try (RedisProcess late = RedisProcess.onFreePort()) {
            // visibilityTimeout=300: a lease-extension tick every 100 ms, with no leases held, must not end the outage
            String uri = "reliable-redis:" + queue + "?mode=" + mode + "&bridgeErrorHandler=true&visibilityTimeout=300"
                         + "&reaperInterval=100&redisUri=" + late.uri();
            routes(new RouteBuilder() {
                public void configure() {
                    onException(Exception.class).handled(true).process(errors::add);
                    from(uri).process(received::add);
                }
            });

            await().atMost(Duration.ofSeconds(15))
                    .until(() -> log().contains("queue '" + queue + "' still fail (attempt 6,"));
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class))
                    .hasMessageContaining("on queue '" + queue + "' failed");

            late.launch();
            template.sendBody(uri, "after the outage");
            awaitReceived(1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> log().contains("Redis calls for queue '" + queue + "' succeed again"));

            late.kill();
            await("the second outage is reported too").atMost(Duration.ofSeconds(10)).until(() -> errors.size() == 2);
        }
    }

    @Test
    void anAuthenticationFailureGoesToTheConsumersExceptionHandler() throws Exception {
        List<String> reported = recordOutages();
        String queue = "handler-q-" + mode;
        try (RedisProcess locked = RedisProcess.start("--requirepass", "right")) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:" + queue + "?mode=" + mode + "&password=wrong&exceptionHandler=#recordingHandler"
                         + "&redisUri=" + locked.uri()).process(received::add);
                }
            });

            // the handler runs on the housekeeping thread, which may come to it after later attempts were logged
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> log().contains("queue '" + queue + "' still fail (attempt 3,") && !reported.isEmpty());
            assertThat(reported).hasSize(1);
            assertThat(reported.get(0)).contains("Redis calls for queue '" + queue
                                                 + "' fail: authentication failed (check username and password)")
                    .doesNotContain("wrong");
        }
    }

    @Test
    void stoppingWaitsAtMostOneShutdownTimeoutInAll() throws Exception {
        context.getShutdownStrategy().setTimeout(5);
        CountDownLatch finishFirst = new CountDownLatch(1);
        CountDownLatch finishSecond = new CountDownLatch(1);
        try (RedisProcess own = RedisProcess.start()) {
            // batches of one: each thread holds one of the two, whatever the order the threads first claim in
            String uri = "reliable-redis:stop-q-" + mode + "?mode=" + mode + "&concurrentConsumers=2&maxMessagesPerPoll=1"
                         + "&redisUri=" + own.uri();
            routes(new RouteBuilder() {
                public void configure() {
                    from(uri).routeId("stop").process(e -> {
                        received.add(e);
                        ("first".equals(e.getMessage().getBody(String.class)) ? finishFirst : finishSecond)
                                .await(30, TimeUnit.SECONDS);
                    });
                }
            });
            template.sendBody(uri, "first");
            template.sendBody(uri, "second");
            awaitReceived(2);
            own.pause();
            try {
                finishFirst.countDown();
                long start = System.nanoTime();
                context.getRoute("stop").getConsumer().stop();

                // the second exchange runs past the deadline and the first one's ack gets no answer: each used to
                // be given a whole shutdown timeout of its own, two in all; one, and what a loaded machine adds to
                // it (3 s seen with two other builds running), stays below two
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            } finally {
                own.resume();
                finishSecond.countDown();
            }
        }
    }

    @Test
    void aConsumerLivesThroughARedisCrashAndConsumesAfterTheRestart() throws Exception {
        try (RedisProcess own = RedisProcess.start()) {
            String uri = "reliable-redis:crash-q-" + mode + "?mode=" + mode + "&reaperInterval=100&redisUri=" + own.uri();
            routes(new RouteBuilder() {
                public void configure() {
                    from(uri).process(received::add);
                }
            });
            template.sendBody(uri, "before");
            awaitReceived(1);

            own.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> log().contains("queue 'crash-q-" + mode + "'"));
            own.launch();
            await("a send succeeds again").atMost(Duration.ofSeconds(10))
                    .until(() -> template.send(uri, e -> e.getMessage().setBody("after")).getException() == null);

            awaitReceived(2);
            assertThat(received.get(1).getMessage().getBody(String.class)).isEqualTo("after");
        }
    }

    private static String log() {
        return TestLog.text();
    }
}
