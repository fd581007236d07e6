package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.ChoiceDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** One test per row of the contract's outcome table. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class OutcomeTableTest extends CamelRedisTestBase {

    /** Stream mode: a due retry waits for the next claim, which an idle consumer makes every pollTimeout. */
    private static final String FAST_RETRY = "&retryDelay=50&maxRetryDelay=50&reaperInterval=50&pollTimeout=100";

    @Test
    void aCompletedExchangeIsAckedAndItsIdRemembered() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add);
            }
        });
        String id = send("q", "hello");

        awaitDeliveredOnceAndAcked(id);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("hello");
    }

    @Test
    void aFailureHandledByTheDeadLetterChannelIsAcked() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                errorHandler(deadLetterChannel("direct:dlc"));
                from("direct:dlc").process(received::add);
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).throwException(new IllegalStateException("boom"));
            }
        });
        String id = send("q", "x");

        awaitDeliveredOnceAndAcked(id);
        assertThat(received).hasSize(1);
    }

    @Test
    void aFailureHandledByOnExceptionIsAcked() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                onException(IllegalStateException.class).handled(true).process(received::add);
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).throwException(new IllegalStateException("boom"));
            }
        });
        String id = send("q", "x");

        awaitDeliveredOnceAndAcked(id);
    }

    @Test
    void aFilteredExchangeIsAcked() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add)
                        .filter(body().isEqualTo("keep")).to("mock:never");
            }
        });
        String id = send("q", "drop");

        awaitDeliveredOnceAndAcked(id);
    }

    @Test
    void aStoppedExchangeIsAcked() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add).stop();
            }
        });
        String id = send("q", "x");

        awaitDeliveredOnceAndAcked(id);
    }

    @Test
    void anUnhandledFailureIsRetriedAfterTheBackoffWithTheDeliveryCountUp() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&retryDelay=300&reaperInterval=50").process(e -> {
                    received.add(e);
                    if (e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) == 1) {
                        throw new IllegalStateException("first time fails");
                    }
                });
            }
        });
        send("q", "x");

        awaitReceived(2);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsExactly(1, 2);
        long gap = received.get(1).getClock().getCreated() - received.get(0).getClock().getCreated();
        assertThat(gap).isGreaterThanOrEqualTo(300);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rollback", "markRollbackOnly"})
    void aRolledBackExchangeIsRetried(String rollback) throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                ChoiceDefinition firstAttempt = from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add)
                        .choice().when(header(ReliableRedisConstants.DELIVERY_COUNT).isEqualTo(1));
                ("rollback".equals(rollback) ? firstAttempt.rollback("no") : firstAttempt.markRollbackOnly()).end();
            }
        });
        send("q", "x");

        awaitReceived(2);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received.get(1).getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT)).isEqualTo(2);
    }

    @Test
    void anExchangeMarkedRollbackOnlyLastIsRetriedAndDeadLetteredWhenNoDeliveriesAreLeft() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY + "&maxRetries=1").process(received::add)
                        .markRollbackOnlyLast();
            }
        });
        String id = send("q", "x");

        awaitStats("q", 0, 0, 0, 1);
        assertThat(received).hasSize(2);
        assertThat(failureOf("q", id)).isEqualTo("rolled back (marked rollback-only)");
    }

    @Test
    void aRetryAfterFromTheRouteGivesTheMessageBackWithoutUsingARetryWhetherItCompletedOrFailed() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                // maxRetries=0: a single failure would dead-letter it
                from("reliable-redis:q?mode=" + mode + FAST_RETRY + "&maxRetries=0").routeId("consume")
                        .process(received::add)
                        .choice()
                        .when(header(ReliableRedisConstants.DELIVERY_COUNT).isEqualTo(1))
                        .setHeader(ReliableRedisConstants.RETRY_AFTER, constant(50L))
                        .when(header(ReliableRedisConstants.DELIVERY_COUNT).isEqualTo(2))
                        .setHeader(ReliableRedisConstants.RETRY_AFTER, constant("50"))
                        .throwException(new IllegalStateException("busy downstream"))
                        .end();
            }
        });
        String id = send("q", "later");

        awaitReceived(3);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsExactly(1, 2, 3);
        assertThat(raw.zscore(key("q", "acked"), id)).as("acked on its third delivery").isNotNull();
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
        assertThat(consumer.getRetriedAfterCount()).isEqualTo(2);
        assertThat(consumer.getDeadLetteredCount()).isZero();
    }

    @Test
    void aRetryAfterLongerThanMaxRetryAfterIsCutToIt() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&maxRetryAfter=60000").process(received::add)
                        .setHeader(ReliableRedisConstants.RETRY_AFTER, constant(86_400_000L));
            }
        });
        send("q", "tomorrow?");
        awaitReceived(1);

        awaitStats("q", 0, 0, 1, 0);
        String due = streamMode() ? key("q", "group:camel:retry") : key("q", "delayed");
        double at = raw.zrangeWithScores(due, 0, 0).get(0).getScore();
        List<String> time = raw.time();
        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        assertThat(at - now).as("due within maxRetryAfter, not in a day").isBetween(0.0, 60_000.0);
    }

    @Test
    void aRetryAfterThatIsNotANumberIsIgnoredAndTheExchangeSettlesAsUsual() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add)
                        .setHeader(ReliableRedisConstants.RETRY_AFTER, constant("soon"));
            }
        });
        String id = send("q", "x");

        awaitDeliveredOnceAndAcked(id);
    }

    @Test
    void anUnhandledFailureWithNoDeliveriesLeftIsDeadLetteredWithItsFailure() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY + "&maxRetries=2").process(received::add)
                        .throwException(new IllegalStateException("always fails"));
            }
        });
        String id = send("q", "poison");

        awaitStats("q", 0, 0, 0, 1);
        assertThat(received).hasSize(3);
        assertThat(failureOf("q", id)).isEqualTo("java.lang.IllegalStateException: always fails");

        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&consumeDeadLetters=true").to("mock:dead");
            }
        });
        var dead = context.getEndpoint("mock:dead", org.apache.camel.component.mock.MockEndpoint.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> dead.getReceivedCounter() == 1);
        Exchange letter = dead.getReceivedExchanges().get(0);
        assertThat(letter.getMessage().getHeader(ReliableRedisConstants.FAILURE))
                .isEqualTo("java.lang.IllegalStateException: always fails");
        assertThat(letter.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo(id);
        assertThat(letter.getMessage().getBody(String.class)).isEqualTo("poison");
        awaitStats("q", 0, 0, 0, 0);
    }

    @Test
    void aDeliveryWhoseExchangeCannotBeFilledInFailsUntilItIsDeadLetteredWithTheCause() throws Exception {
        context.getRegistry().bind("throwing", new ReliableRedisHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
                throw new IllegalStateException("no header gets in");
            }
        });
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY + "&maxRetries=1&headerFilterStrategy=#throwing")
                        .process(received::add);
            }
        });
        String id = send("q", "x", Map.of("tenant", "t1"));

        awaitStats("q", 0, 0, 0, 1);
        assertThat(received).isEmpty();
        assertThat(failureOf("q", id)).isEqualTo("java.lang.IllegalStateException: no header gets in");
    }

    @Test
    void anExchangeRunningPastTheLeaseKeepsItWhileExtendVisibilityIsOn() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&visibilityTimeout=600&reaperInterval=50&concurrentConsumers=2").process(e -> {
                    received.add(e);
                    await().pollDelay(Duration.ofMillis(2000)).until(() -> true);
                });
            }
        });
        send("q", "slow");

        awaitReceived(1);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).hasSize(1);
    }

    @Test
    void aLateAckAfterTheLeaseExpiredIsRefusedAndTheNewDeliveryIsUnaffected() throws Exception {
        CountDownLatch finishSecond = new CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&visibilityTimeout=500&extendVisibility=false&reaperInterval=50"
                     + "&concurrentConsumers=2").routeId("late").process(e -> {
                         received.add(e);
                         if (e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) == 1) {
                             await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
                         } else {
                             finishSecond.await(10, TimeUnit.SECONDS);
                         }
                     });
            }
        });
        String id = send("q", "slow");
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("late").getConsumer();

        await("the late ack is refused").atMost(Duration.ofSeconds(10))
                .until(() -> consumer.getRefusedSettlementCount() == 1);
        assertThat(stats("q")).containsEntry("inflight", 1L);
        assertThat(raw.zscore(key("q", "acked"), id)).isNull();

        finishSecond.countDown();
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT))
                .containsExactly(1, 2);
        assertThat(raw.zscore(key("q", "acked"), id)).isNotNull();
        assertThat(consumer.getRefusedSettlementCount()).isEqualTo(1);
    }

    @Test
    void anAckThatDoesNotReachRedisIsRetriedWhileTheLeaseIsKept() throws Exception {
        // a Redis of its own, which the test pauses: a timeout is no refusal, so the ack is retried until it lands
        try (RedisProcess own = RedisProcess.start()) {
            String on = "&redisUri=" + own.uri() + "&commandTimeout=300";
            CountDownLatch finish = new CountDownLatch(1);
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:q?mode=" + mode + on + "&visibilityTimeout=10000&reaperInterval=60000")
                            .routeId("blip").process(e -> {
                                received.add(e);
                                finish.await(10, TimeUnit.SECONDS);
                            });
                }
            });
            String id = template.request("reliable-redis:q?mode=" + mode + on, e -> e.getMessage().setBody("x"))
                    .getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
            awaitReceived(1);
            ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("blip").getConsumer();
            own.pause();
            finish.countDown();

            await("failed attempts").atMost(Duration.ofSeconds(10)).until(() -> consumer.redisState().outage() != null
                    && consumer.redisState().outage().failedAttempts() >= 3);
            own.resume();

            await("the ack landed").atMost(Duration.ofSeconds(15)).until(() -> streamMode()
                    ? own.commands().xpending(key("q", "stream"), "camel").getCount() == 0
                    : own.commands().zscore(key("q", "acked"), id) != null
                      && own.commands().exists(key("q", "inflight"), key("q", "messages")) == 0);
            assertThat(received).hasSize(1);
        }
    }

    @Test
    void headersOfTheDeliveryAreSet() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + FAST_RETRY).process(received::add);
            }
        });
        long before = Long.parseLong(raw.time().get(0)) * 1000;
        String id = send("q", "x", Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "my-id"));

        awaitReceived(1);
        var message = received.get(0).getMessage();
        assertThat(id).isEqualTo("my-id");
        assertThat(message.getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo("my-id");
        assertThat(message.getHeader(ReliableRedisConstants.QUEUE)).isEqualTo("q");
        assertThat(message.getHeader(ReliableRedisConstants.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(message.getHeader(ReliableRedisConstants.ENQUEUED_AT, Long.class)).isBetween(before,
                before + 60_000);
    }

    /** The one message sent was delivered once and acked, and nothing is left in the queue. */
    private void awaitDeliveredOnceAndAcked(String id) {
        awaitReceived(1);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(raw.zscore(key("q", "acked"), id)).isNotNull();
    }
}
