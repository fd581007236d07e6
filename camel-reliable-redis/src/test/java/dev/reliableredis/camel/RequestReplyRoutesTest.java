package dev.reliableredis.camel;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.testsupport.RedisProcess;
import dev.reliableredis.testsupport.ReplyCutter;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeTimedOutException;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * requestReply=true: a send waits for the consumer route's reply, which its ack carries (the route's result) or its
 * dead-lettering (an error); retried attempts reply nothing; no reply in time fails the send, and the request
 * expires unrun.
 */
class RequestReplyRoutesTest extends CamelRedisTestBase {

    private String requests(String options) {
        return "reliable-redis:q?requestReply=true&mode=" + mode + options;
    }

    private Exchange request(String uri, Object body) {
        return template.request(uri, e -> e.getMessage().setBody(body));
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void theReplyIsTheRoutesFinalBodyAndTravellingHeaders(String mode) throws Exception {
        this.mode = mode;
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add).transform(simple("done ${body}"))
                        .setHeader("status", constant("shipped")).setHeader("cAMELFileName", constant("/etc/passwd"));
            }
        });

        Exchange reply = request(requests(""), "order 1");

        assertThat(reply.getException()).isNull();
        assertThat(reply.getMessage().getBody(String.class)).isEqualTo("done order 1");
        assertThat(reply.getMessage().getHeader("status")).isEqualTo("shipped");
        assertThat(reply.getMessage().getHeaders()).as("Camel headers in any case").doesNotContainKey("CamelFileName");
        assertThat(received).hasSize(1);
        assertThat(received.get(0).getMessage().getHeaders()).doesNotContainKey("CamelReliableRedisReplyTo");
        awaitStats("q", 0, 0, 0, 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aRetriedAttemptRepliesNothingAndTheAttemptThatIsAckedReplies(String mode) throws Exception {
        this.mode = mode;
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?maxRetries=2&retryDelay=10&mode=" + mode).process(received::add).process(e -> {
                    if (deliveryCount(e) == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                    e.getMessage().setBody("attempt " + deliveryCount(e));
                });
            }
        });

        Exchange reply = request(requests(""), "order 1");

        assertThat(reply.getException()).isNull();
        assertThat(reply.getMessage().getBody(String.class)).isEqualTo("attempt 2");
        assertThat(received).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aDeadLetteredRequestFailsTheSendWithItsReason(String mode) throws Exception {
        this.mode = mode;
        alwaysFailingRoute("consume", "reliable-redis:q?maxRetries=0&mode=" + mode, "no such customer");

        Exchange reply = request(requests(""), "order 1");

        assertThat(reply.getException()).isInstanceOf(RequestFailedException.class)
                .hasMessageContaining("dead-lettered by the consumer of queue 'q'")
                .hasMessageContaining("no such customer");
        awaitStats("q", 0, 0, 0, 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aLongFailureIsCutToOneKilobyteInTheErrorReplyAndTheDeadLetter(String mode) throws Exception {
        this.mode = mode;
        alwaysFailingRoute("consume", "reliable-redis:q?maxRetries=0&mode=" + mode,
                "no such customer: " + "x".repeat(100_000));

        Exchange reply = request(requests(""), "order 1");

        assertThat(reply.getException()).isInstanceOf(RequestFailedException.class)
                .hasMessageContaining("no such customer: xxx").hasMessageContaining("x…")
                .hasMessageNotContaining("x".repeat(1024));
        awaitStats("q", 0, 0, 0, 1);
        String failure = failureOf("q", reply.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class));
        assertThat(failure).startsWith(IllegalStateException.class.getName() + ": no such customer").endsWith("x…");
        assertThat(failure.getBytes(StandardCharsets.UTF_8)).hasSize(1024);
    }

    @Test
    void noReplyInTimeFailsTheSendNamingQueueAndTimeoutAndTheRequestIsNeverRun() throws Exception {
        Exchange reply = request(requests("&requestTimeout=300"), "too late");

        assertThat(reply.getException()).isInstanceOf(ExchangeTimedOutException.class)
                .hasMessageContaining("queue 'q'").hasMessageContaining("requestTimeout (300 ms)");

        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?expiredMessages=drop").process(received::add);
            }
        });
        send("q", "after it");
        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("after it");
        awaitStats("q", 0, 0, 0, 0);
    }

    @Test
    void whatTheRouteForwardsToAnotherQueueDoesNotReplyThere() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q").to("reliable-redis:b").transform(constant("from q"));
                from("reliable-redis:b").process(received::add).transform(constant("from b"));
            }
        });

        Exchange reply = request(requests(""), "order 1");

        assertThat(reply.getMessage().getBody(String.class)).isEqualTo("from q");
        awaitReceived(1);
        awaitStats("b", 0, 0, 0, 0);
        assertThat(RedisProcess.keys(raw, "*:reply:*")).as("no reply waits for anyone").isEmpty();
    }

    @Test
    void everyShardOfAShardedQueueReplies() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?shards=3").transform(simple("reply to ${body}"));
            }
        });
        List<CompletableFuture<String>> replies = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            replies.add(template.asyncRequestBody(requests("&shards=3"), "request " + i, String.class));
        }
        for (int i = 0; i < 30; i++) {
            assertThat(replies.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("reply to request " + i);
        }
        assertThat(RedisProcess.keys(raw, "rr:{q#*")).as("the requests went to other shards than shard 0 too").isNotEmpty();
    }

    @Test
    void aListBodyIsRefusedNamingTheQueue() {
        Exchange reply = request(requests(""), List.of("a", "b"));

        assertThat(reply.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("requestReply").hasMessageContaining("queue 'q'");
        assertThat(stats("q").get("ready")).isZero();
    }

    @Test
    void aThousandConcurrentRequestsFromTwoContextsEachGetTheirOwnReply() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?concurrentConsumers=8&maxMessagesPerPoll=50")
                        .transform(simple("reply to ${body}"));
            }
        });
        CamelContext other = startedContext(new RouteBuilder() {
            public void configure() {
            }
        });
        try (ProducerTemplate otherTemplate = other.createProducerTemplate()) {
            List<CompletableFuture<String>> replies = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                ProducerTemplate sender = i % 2 == 0 ? template : otherTemplate;
                replies.add(sender.asyncRequestBody(requests(""), "request " + i, String.class));
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(replies.get(i).get(60, TimeUnit.SECONDS)).isEqualTo("reply to request " + i);
            }
        } finally {
            other.stop();
        }
    }

    @Test
    void aConsumerKilledMidRequestMakesTheRequestTimeOut() throws Exception {
        ConsumerJvm victim = ConsumerJvm.start(redisUri(), "reliable-redis:q?visibilityTimeout=60000", "hang");
        CompletableFuture<Exchange> reply;
        try {
            reply = template.asyncSend(requests("&requestTimeout=5000"), e -> e.getMessage().setBody("order 1"));
            await("the victim runs the request").atMost(Duration.ofSeconds(30))
                    .until(() -> !victim.processed().isEmpty());
        } finally {
            victim.kill();
        }

        assertThat(reply.get(30, TimeUnit.SECONDS).getException()).isInstanceOf(ExchangeTimedOutException.class)
                .hasMessageContaining("queue 'q'").hasMessageContaining("requestTimeout (5000 ms)");
    }

    /**
     * A request whose send loses its reply after Redis stored it: a proxy closes the producer's connection instead of
     * passing the enqueue's reply on. Lettuce sends the call again once it has reconnected: a no-op, which for the
     * request's own fresh id means that the lost call stored it, so the send waits for its reply; or, when that comes
     * past the call's deadline or timeout, the attempt fails as outcome unknown and the error handler's redelivery,
     * under the same id and correlation id, is the no-op that waits.
     */
    @ParameterizedTest
    @CsvSource({"list,false", "stream,false", "list,true", "stream,true"})
    void aRequestWhoseSendLostItsReplyGetsTheReplyAndRunsOnce(String mode, boolean synchronous) throws Exception {
        this.mode = mode;
        try (ReplyCutter cutter = ReplyCutter.inFrontOf(redis)) {
            routes(new RouteBuilder() {
                public void configure() {
                    // once: a redelivery that failed too would send again under a new id
                    onException(Exception.class).maximumRedeliveries(1).redeliveryDelay(500);
                    from("direct:request").to(requests("&redisUri=" + cutter.uri() + "&synchronous=" + synchronous));
                    from("reliable-redis:q?mode=" + mode).process(received::add).transform(simple("done ${body}"));
                }
            });
            // the producer's connections open and its script loaded, so that the cut reply is the send's
            assertThat(request("direct:request", "order 1").getException()).isNull();
            cutter.cutReplyTo("EVALSHA");

            Exchange reply = request("direct:request", "order 2");

            assertThat(cutter.cuts()).isEqualTo(1);
            assertThat(reply.getException()).isNull();
            assertThat(reply.getMessage().getHeader(ReliableRedisConstants.ENQUEUED, Boolean.class))
                    .as("the call that answered found the request the lost call had stored").isFalse();
            assertThat(reply.getMessage().getBody(String.class)).isEqualTo("done order 2");
            assertThat(received).as("each request ran once").hasSize(2);
        }
    }
}
