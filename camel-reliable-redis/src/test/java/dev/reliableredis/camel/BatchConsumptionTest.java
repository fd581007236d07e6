package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.Consumer;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.processor.aggregate.GroupedBodyAggregationStrategy;
import org.apache.camel.support.service.ServiceSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each consumer thread claims a batch and runs it in turn: the contract's "Batches". */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BatchConsumptionTest extends CamelRedisTestBase {

    /** How long a test's slow exchanges wait at most when nothing releases them. */
    private static final long STUCK_MS = 30_000;

    @Test
    void eachExchangeOfABatchCarriesCamelsBatchPropertiesSoAnAggregatorCompletesFromTheBatchConsumer()
            throws Exception {
        List<String> ids = IntStream.range(0, 5).mapToObj(i -> send("b", "m" + i)).toList();
        List<Exchange> aggregated = new java.util.concurrent.CopyOnWriteArrayList<>();
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:b?mode=" + mode + "&maxMessagesPerPoll=5").process(received::add)
                        .convertBodyTo(String.class).aggregate(constant(true), new GroupedBodyAggregationStrategy()).completionFromBatchConsumer()
                        .process(aggregated::add);
            }
        });

        awaitReceived(5);
        assertThat(received).extracting(e -> e.getProperty(Exchange.BATCH_INDEX)).containsExactly(0, 1, 2, 3, 4);
        assertThat(received).extracting(e -> e.getProperty(Exchange.BATCH_SIZE)).containsOnly(5);
        assertThat(received).extracting(e -> e.getProperty(Exchange.BATCH_COMPLETE))
                .containsExactly(false, false, false, false, true);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyElementsOf(ids);
        await().atMost(Duration.ofSeconds(15)).until(() -> aggregated.size() == 1);
        assertThat(aggregated.get(0).getMessage().getBody(List.class)).containsExactly("m0", "m1", "m2", "m3", "m4");
        awaitStats("b", 0, 0, 0, 0);
    }

    @Test
    void messagesWaitingBehindTheirBatchKeepTheirLeasesAndAreDeliveredOnce() throws Exception {
        for (int i = 0; i < 3; i++) {
            send("slow", "m" + i);
        }
        routes(new RouteBuilder() {
            public void configure() {
                // the batch takes three exchanges of 700 ms: the last waits twice the visibility timeout
                from("reliable-redis:slow?mode=" + mode + "&maxMessagesPerPoll=3&visibilityTimeout=600"
                     + "&reaperInterval=100").process(e -> {
                         received.add(e);
                         TimeUnit.MILLISECONDS.sleep(700);
                     });
            }
        });

        awaitReceived(3);
        awaitStats("slow", 0, 0, 0, 0);
        assertThat(received).hasSize(3);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsOnly(1);
        assertThat(received).extracting(e -> e.getProperty(Exchange.BATCH_SIZE)).containsOnly(3);
    }

    @Test
    void fiveIdleThreadsRunFiveSlowMessagesQueuedBeforeTheyStartedSideBySideFromTheFirstClaim() throws Exception {
        enqueueAtOnce("backlog", 5);
        CountDownLatch allRunning = new CountDownLatch(5);
        try {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:backlog?mode=" + mode + "&concurrentConsumers=5&maxMessagesPerPoll=10")
                            .process(e -> {
                                received.add(e);
                                allRunning.countDown();
                                allRunning.await(STUCK_MS, TimeUnit.MILLISECONDS);
                            });
                }
            });

            await("all 5 run at once").atMost(Duration.ofSeconds(15)).until(() -> allRunning.getCount() == 0);
            assertThat(received).as("each thread's part of the one claim is a batch of one")
                    .extracting(e -> e.getProperty(Exchange.BATCH_SIZE)).containsOnly(1);
            assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                    .containsOnly(1);
        } finally {
            IntStream.range(0, 5).forEach(i -> allRunning.countDown());
        }
        awaitStats("backlog", 0, 0, 0, 0);
    }

    @Test
    void aSmallBacklogOfSlowMessagesRunsSideBySideOnTheIdleThreadsOfTwoContexts() throws Exception {
        CountDownLatch allRunning = new CountDownLatch(8);
        String uri = "reliable-redis:share?mode=" + mode + "&concurrentConsumers=4&maxMessagesPerPoll=10";
        RouteBuilder slowRoute = new RouteBuilder() {
            public void configure() {
                from(uri).process(e -> {
                    received.add(e);
                    allRunning.countDown();
                    allRunning.await(STUCK_MS, TimeUnit.MILLISECONDS);
                });
            }
        };
        CamelContext other = new DefaultCamelContext();
        try {
            connect(other.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri());
            other.addRoutes(slowRoute);
            other.start();
            routes(slowRoute);
            String claimers = streamMode() ? key("share", "group:camel:claimers") : key("share", "claimers");
            await("8 idle consumer threads").atMost(Duration.ofSeconds(15)).until(() -> raw.zcard(claimers) == 8);

            enqueueAtOnce("share", 8);

            await("all 8 run at once").atMost(Duration.ofSeconds(15)).until(() -> allRunning.getCount() == 0);
            assertThat(received).hasSize(8);
            awaitStats("share", 0, 0, 0, 0);
        } finally {
            IntStream.range(0, 8).forEach(i -> allRunning.countDown());
            other.stop();
        }
    }

    @Test
    void aStopGivesBackTheUnstartedRestOfABatchAtOnceWithoutCountingADelivery() throws Exception {
        List<String> ids = IntStream.range(0, 5).mapToObj(i -> send("stop", "m" + i)).toList();
        CountDownLatch release = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:stop?mode=" + mode + "&maxMessagesPerPoll=5&visibilityTimeout=60000")
                        .routeId("batch").process(e -> {
                            received.add(e);
                            release.await(STUCK_MS, TimeUnit.MILLISECONDS);
                        });
            }
        });
        awaitReceived(1);

        CompletableFuture<Void> stop = stopRouteWhenRunningExchangeIsReleased("batch", release);

        stop.get(30, TimeUnit.SECONDS);
        assertThat(received).hasSize(1);
        assertThat(stats("stop")).as("given back at once, long before their leases would expire")
                .isEqualTo(Map.of("ready", 4L, "inflight", 0L, "delayed", 0L, "dead", 0L));

        received.clear();
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:stop?mode=" + mode).process(received::add);
            }
        });
        awaitReceived(4);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyInAnyOrderElementsOf(ids.subList(1, 5));
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .as("the claim they were given back from did not count").containsOnly(1);
    }

    @Test
    void withCompleteAllTasksAStopRunsTheRestOfTheBatchFirst() throws Exception {
        for (int i = 0; i < 5; i++) {
            send("all", "m" + i);
        }
        CountDownLatch release = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:all?mode=" + mode + "&maxMessagesPerPoll=5&visibilityTimeout=60000")
                        .routeId("batch").shutdownRunningTask(ShutdownRunningTask.CompleteAllTasks).process(e -> {
                            received.add(e);
                            release.await(STUCK_MS, TimeUnit.MILLISECONDS);
                        });
            }
        });
        awaitReceived(1);

        stopRouteWhenRunningExchangeIsReleased("batch", release).get(30, TimeUnit.SECONDS);

        assertThat(received).hasSize(5);
        assertThat(stats("all")).isEqualTo(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L));
    }

    @Test
    void aWaitingMessageWhoseLeaseWasLostIsSkipped() throws Exception {
        String first = send("lost", "first");
        String second = send("lost", "second");
        CountDownLatch release = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:lost?mode=" + mode + "&maxMessagesPerPoll=2&visibilityTimeout=900"
                     + "&reaperInterval=60000").routeId("lost").process(e -> {
                         received.add(e);
                         if (received.size() == 1) {
                             release.await(STUCK_MS, TimeUnit.MILLISECONDS);
                         }
                     });
            }
        });
        awaitReceived(1);
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("lost").getConsumer();

        takeLeaseAway("lost", second);
        await("an extension finds the lease lost").atMost(Duration.ofSeconds(10))
                .until(() -> consumer.getLeasesLostCount() == 1);
        release.countDown();
        String third = send("lost", "third");

        await().atMost(Duration.ofSeconds(15))
                .until(() -> received.stream().anyMatch(e -> third.equals(id(e))));
        assertThat(received).extracting(BatchConsumptionTest::id).as("the second was skipped")
                .containsExactly(first, third);
    }

    private static Object id(Exchange e) {
        return e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID);
    }

    /** Another consumer takes the message's lease, as a claim after an expiry would. */
    private void takeLeaseAway(String queue, String messageId) {
        if (streamMode()) {
            String entry = raw.hget(key(queue, "ids"), messageId);
            raw.xclaim(key(queue, "stream"), Consumer.from("camel", "thief"), XClaimArgs.Builder.minIdleTime(0),
                    entry);
        } else {
            raw.hset(key(queue, "leases"), messageId, "2|999999");
        }
    }

    /** Stops the route on another thread, and once it is stopping, lets the exchange running finish. */
    private CompletableFuture<Void> stopRouteWhenRunningExchangeIsReleased(String routeId, CountDownLatch release) {
        CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> {
            try {
                context.getRouteController().stopRoute(routeId, 30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ServiceSupport consumer = (ServiceSupport) context.getRoute(routeId).getConsumer();
        await().atMost(Duration.ofSeconds(10)).until(consumer::isStopping);
        release.countDown();
        return stop;
    }

    /** Enqueues the messages in one script call, so that they are ready together. */
    private void enqueueAtOnce(String queue, int count) {
        ClientResources resources = RedisGateway.newClientResources();
        try (RedisGateway gateway = gateway(resources)) {
            QueueSettings settings = QueueSettings.defaults();
            StreamOptions options = streamMode()
                    ? new StreamOptions(null, null, "camel", "0", "test-producer", 0, true) : null;
            // as an endpoint does before its first send
            Queues.shardCount(gateway, "rr", queue, 1, options).check();
            ReliableQueue q = streamMode() ? StreamQueue.of(gateway, "rr", queue, options, settings)
                    : ListQueue.of(gateway, "rr", queue, settings);
            q.enqueue(IntStream.range(0, count)
                    .mapToObj(i -> new NewMessage("m" + i, ("m" + i).getBytes(), null, 0)).toList());
        } finally {
            resources.shutdown();
        }
    }
}
