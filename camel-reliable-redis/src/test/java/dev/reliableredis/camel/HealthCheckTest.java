package dev.reliableredis.camel;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The consumer's and the producer's health checks, read through Camel's health check registry. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class HealthCheckTest extends CamelRedisTestBase {

    private static final Duration FEW_SECONDS = Duration.ofSeconds(5);

    @Test
    void theConsumerIsDownWithinSecondsOfRedisDyingAndUpAgainAfterItsRestart() throws Exception {
        try (RedisProcess own = RedisProcess.start()) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:q?mode=" + mode + "&redisUri=" + own.uri()).routeId("consume")
                            .process(received::add);
                }
            });
            awaitState("consumer:consume", HealthCheck.State.UP, Duration.ofSeconds(10));

            own.kill();
            HealthCheck.Result down = awaitState("consumer:consume", HealthCheck.State.DOWN, FEW_SECONDS);
            assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message)
                    .contains("Redis calls for queue 'q' fail since"));
            assertThat(down.getDetails()).containsEntry("queue", "q").containsKey("outage.since");
            assertThat(down.getError()).isPresent();

            own.launch();
            awaitState("consumer:consume", HealthCheck.State.UP, Duration.ofSeconds(15));
            template.sendBody("reliable-redis:q?mode=" + mode + "&redisUri=" + own.uri(), "after the restart");
            awaitReceived(1);
            assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("after the restart");
        }
    }

    @Test
    void aConsumerIsDownUntilRedisFirstAnswersEvenWhileItHasNoLeaseToExtend() throws Exception {
        try (RedisProcess own = RedisProcess.start()) {
            own.pause();
            try {
                routes(new RouteBuilder() {
                    public void configure() {
                        // lease extension ticks every 100 ms, with no lease to extend: they must not count as answers
                        from("reliable-redis:q?mode=" + mode + "&redisUri=" + own.uri()
                             + "&visibilityTimeout=300&commandTimeout=3000").routeId("consume").process(received::add);
                    }
                });
                await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                        .until(() -> result("consumer:consume").orElseThrow().getState() == HealthCheck.State.DOWN);
            } finally {
                own.resume();
            }
            awaitState("consumer:consume", HealthCheck.State.UP, Duration.ofSeconds(10));
        }
    }

    @Test
    void aConsumerWhosePasswordIsWrongIsDownAndSaysSo() throws Exception {
        try (RedisProcess locked = RedisProcess.start("--requirepass", "right")) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:q?mode=" + mode + "&redisUri=" + locked.uri() + "&password=wrong")
                            .routeId("consume").process(received::add);
                }
            });

            // Lettuce 7 can first report the cut connection of the refused handshake, then the refusal
            HealthCheck.Result down = await("DOWN naming the authentication failure").atMost(FEW_SECONDS)
                    .pollInterval(Duration.ofMillis(100)).until(() -> result("consumer:consume").orElse(null),
                            r -> r != null && r.getState() == HealthCheck.State.DOWN
                                 && r.getMessage().orElse("").contains("authentication failed"));
            assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message).doesNotContain("wrong"));
        }
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void noCheckShowsAWrongPasswordWhateverItHolds(String character) throws Exception {
        HealthCheckHelper.getHealthCheckRepository(context, "producers").setEnabled(true);
        // the URI's credentials, not the least-privilege user's that the component has under the ACL run
        ReliableRedisComponent component = context.getComponent("reliable-redis", ReliableRedisComponent.class);
        component.setUsername(null);
        component.setPassword(null);
        try (RedisProcess locked = RedisProcess.start("--requirepass", "right")) {
            String uri = "reliable-redis:q?mode=" + mode + "&redisUri=RAW(redis://app:"
                         + URLEncoder.encode("s3cr" + character + "et", StandardCharsets.UTF_8) + "@127.0.0.1:"
                         + locked.port() + ")";
            routes(new RouteBuilder() {
                public void configure() {
                    from(uri).routeId("consume").process(received::add);
                    from("direct:send").routeId("send").to(uri);
                }
            });
            String producer = context.getEndpoints().stream().filter(ReliableRedisEndpoint.class::isInstance)
                    .map(endpoint -> "producer:reliable-redis-" + ((ReliableRedisEndpoint) endpoint).getId())
                    .findFirst().orElseThrow();

            for (String check : List.of("consumer:consume", producer)) {
                HealthCheck.Result down = awaitState(check, HealthCheck.State.DOWN, FEW_SECONDS);
                assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message).doesNotContain("s3cr"));
                assertThat(String.valueOf(down.getDetails())).doesNotContain("s3cr");
                StringWriter trace = new StringWriter();
                down.getError().ifPresent(error -> error.printStackTrace(new PrintWriter(trace)));
                assertThat(trace.toString()).as(check).doesNotContain("s3cr");
            }
        }
    }

    @Test
    void theConsumerCheckCanBeSwitchedOff() throws Exception {
        context.getComponent("reliable-redis", ReliableRedisComponent.class).setHealthCheckConsumerEnabled(false);
        try (RedisProcess nothing = RedisProcess.onFreePort()) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:q?mode=" + mode + "&redisUri=" + nothing.uri()).routeId("consume")
                            .process(received::add);
                }
            });
            ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
            await().atMost(FEW_SECONDS).until(() -> consumer.getOutageSince().length() > 0);

            // no consumer check at all (a disabled one would make Camel report the route UNKNOWN)
            assertThat(consumer.getHealthCheck()).isNull();
            assertThat(result("consumer:consume")).isEmpty();
        }
    }

    @Test
    void deadLettersOverTheThresholdAreADetailWhileTheConsumerStaysUp() throws Exception {
        alwaysFailingRoute("consume", "reliable-redis:q?mode=" + mode + "&maxRetries=0&deadLetterWarnThreshold=1",
                "always fails");
        send("q", "one");
        send("q", "two");
        awaitStats("q", 0, 0, 0, 2);

        HealthCheck.Result up = await().atMost(FEW_SECONDS).until(() -> result("consumer:consume").orElseThrow(),
                result -> Boolean.TRUE.equals(result.getDetails().get("deadLetterWarning")));
        assertThat(up.getState()).isEqualTo(HealthCheck.State.UP);
        assertThat(up.getDetails()).containsEntry("dead", 2L);
        assertThat(up.getMessage()).hasValueSatisfying(message -> assertThat(message)
                .contains("2 dead letters wait in queue 'q'"));
    }

    @Test
    void theProducerIsDownWhileRedisDoesNotAnswerAndUpWhenItDoes() throws Exception {
        // Camel runs producer checks only when asked to (camel.health.producersEnabled=true in camel-main)
        HealthCheckHelper.getHealthCheckRepository(context, "producers").setEnabled(true);
        try (RedisProcess late = RedisProcess.onFreePort()) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("direct:send").routeId("send")
                            .to("reliable-redis:q?mode=" + mode + "&redisUri=" + late.uri() + "&commandTimeout=1000");
                }
            });
            String check = context.getEndpoints().stream().filter(ReliableRedisEndpoint.class::isInstance)
                    .map(endpoint -> "producer:reliable-redis-" + ((ReliableRedisEndpoint) endpoint).getId()).findFirst().orElseThrow();

            HealthCheck.Result down = awaitState(check, HealthCheck.State.DOWN, FEW_SECONDS);
            assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message)
                    .contains("Redis does not answer the producer of queue 'q'"));

            late.launch();
            awaitState(check, HealthCheck.State.UP, Duration.ofSeconds(10));
        }
    }
}
