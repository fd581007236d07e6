package dev.reliableredis.camel;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.testsupport.CommandStats;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ProducerTest extends CamelRedisTestBase {

    @Test
    void generatesAnIdWhenNoneIsGivenAndSetsItOnTheExchange() {
        String first = send("q", "a");
        String second = send("q", "a");

        assertThat(first).isNotBlank().isNotEqualTo(second);
        assertThat(stats("q")).containsEntry("ready", 2L);
    }

    @Test
    void enqueueingAKnownIdIsANoOp() {
        Map<String, Object> id = Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "order-7");
        send("q", "first", id);
        send("q", "second", id);

        assertThat(stats("q")).containsEntry("ready", 1L);
        assertThat(bodyOf("q", "order-7")).isEqualTo("first");
    }

    @Test
    void theEnqueuedHeaderSaysWhetherTheSendStoredTheMessageAndANoOpIsLogged() throws Exception {
        String noOp = "INFO dev.reliableredis.camel.ReliableRedisProducer - Message 'order-8-" + mode
                      + "' is already known to queue 'q'";
        // the log is shared with the other test classes of the run, the cluster variant of this one among them
        int noOpsBefore = TestLog.occurrences(noOp);
        Exchange first = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody("first");
            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, "order-8-" + mode);
        });
        Exchange second = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody("second");
            e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, "order-8-" + mode);
        });

        assertThat(first.getMessage().getHeader(ReliableRedisConstants.ENQUEUED)).isEqualTo(true);
        assertThat(second.getMessage().getHeader(ReliableRedisConstants.ENQUEUED)).isEqualTo(false);
        assertThat(second.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo("order-8-" + mode);
        assertThat(TestLog.occurrences(noOp) - noOpsBefore).isEqualTo(1);
    }

    @Test
    void aListBodyIsABatchOfMessagesStoredInOneScriptCall() throws Exception {
        // the endpoint's first call checks the queue's shard count, once
        stats("q");
        long scriptRunsBefore = CommandStats.scriptRuns(serverOf("q"));
        Exchange sent = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody(List.of("a", "b".getBytes(StandardCharsets.UTF_8), "c"));
            e.getMessage().setHeader("source", "billing");
        });

        assertThat(sent.getException()).isNull();
        assertThat(CommandStats.scriptRuns(serverOf("q")) - scriptRunsBefore).as("one enqueue call for the batch").isEqualTo(1);
        assertThat(sent.getMessage().getHeader(ReliableRedisConstants.ENQUEUED)).isEqualTo(List.of(true, true, true));
        List<?> ids = sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, List.class);
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();

        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        awaitReceived(3);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactly("a", "b", "c");
        assertThat(received).extracting(e -> e.getMessage().getHeader("source")).containsOnly("billing");
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .containsExactlyElementsOf(ids);
    }

    @Test
    void aBatchWithADeduplicationIdGivesEachElementItsOwnIdSoThatSendingItAgainIsANoOp() {
        Map<String, Object> batchId = Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "batch-1");
        Exchange first = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody(List.of("a", "b"));
            e.getMessage().setHeaders(new HashMap<>(batchId));
        });
        Exchange again = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody(List.of("a", "b", "c"));
            e.getMessage().setHeaders(new HashMap<>(batchId));
        });

        assertThat(first.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .isEqualTo(List.of("batch-1:0", "batch-1:1"));
        assertThat(again.getMessage().getHeader(ReliableRedisConstants.ENQUEUED)).isEqualTo(List.of(false, false, true));
        assertThat(stats("q")).containsEntry("ready", 3L);
    }

    @Test
    void camelMessagesInABatchBringTheirOwnHeadersDelayAndDeduplicationId() throws Exception {
        Message later = new DefaultMessage(context);
        later.setBody("later");
        later.setHeader(ReliableRedisConstants.DELAY, 60_000L);
        Message own = new DefaultMessage(context);
        own.setBody("own");
        own.setHeader(ReliableRedisConstants.DEDUPLICATION_ID, "own-id");
        own.setHeader("kind", "element");

        Exchange sent = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setBody(List.of(later, own));
            e.getMessage().setHeader("kind", "exchange");
        });

        assertThat(sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, List.class).get(1))
                .isEqualTo("own-id");
        assertThat(stats("q")).containsEntry("ready", 1L).containsEntry("delayed", 1L);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("own");
        assertThat(received.get(0).getMessage().getHeader("kind")).isEqualTo("element");
    }

    @Test
    void aBatchPassesEachHeaderThroughTheHeaderFilterOnce() {
        List<String> filtered = new CopyOnWriteArrayList<>();
        context.getRegistry().bind("counting", new ReliableRedisHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToCamelHeaders(String name, Object value, Exchange exchange) {
                filtered.add(name);
                return super.applyFilterToCamelHeaders(name, value, exchange);
            }
        });
        Message element = new DefaultMessage(context);
        element.setBody("own");
        element.setHeader("kind", "element");

        Exchange sent = template.request("reliable-redis:q?mode=" + mode + "&headerFilterStrategy=#counting", e -> {
            e.getMessage().setBody(List.of("a", element, "b", "c"));
            e.getMessage().setHeader("source", "billing");
        });

        assertThat(sent.getException()).isNull();
        assertThat(filtered).as("the exchange's headers once for its three plain elements, the element's once")
                .containsExactlyInAnyOrder("source", "kind");
    }

    @Test
    void theExchangeGoesOnOnAThreadOfTheProducerNotTheOneThatTalksToRedis() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        routes(new RouteBuilder() {
            public void configure() {
                from("direct:send").to("reliable-redis:q?mode=" + mode)
                        .process(e -> threads.add(Thread.currentThread().getName()));
            }
        });

        for (int i = 0; i < 20; i++) {
            template.sendBody("direct:send", "m" + i);
        }

        assertThat(threads).hasSize(20).allSatisfy(name -> assertThat(name).contains("ReliableRedis[q]-sent"));
        assertThat(stats("q")).containsEntry("ready", 20L);
    }

    @Test
    void withSynchronousTheExchangeGoesOnOnTheSendingThreadWokenByRedissReply() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        routes(new RouteBuilder() {
            public void configure() {
                from("direct:send").to("reliable-redis:q?mode=" + mode + "&synchronous=true")
                        .process(e -> threads.add(Thread.currentThread().getName()));
            }
        });

        for (int i = 0; i < 20; i++) {
            template.sendBody("direct:send", "m" + i);
        }

        assertThat(threads).hasSize(20).containsOnly(Thread.currentThread().getName());
        assertThat(stats("q")).containsEntry("ready", 20L);
        Exchange failed = template.request("reliable-redis:q?mode=" + mode + "&synchronous=true&redisUri=redis://"
                                           + "127.0.0.1:1&commandTimeout=500", e -> e.getMessage().setBody("x"));
        assertThat(failed.getException()).as("a send that did not reach Redis fails the exchange").isNotNull();
    }

    @Test
    void everyPartOfASplitConsumedMessageIsEnqueued() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:in?mode=" + mode).split(body().tokenize(","))
                        .to("reliable-redis:out?mode=" + mode);
                from("reliable-redis:out?mode=" + mode).process(received::add);
            }
        });
        send("in", "a,b,c");

        awaitReceived(3);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactlyInAnyOrder("a", "b",
                "c");
        awaitStats("in", 0, 0, 0, 0);
    }

    @Test
    void aConsumedMessageSentBackToItsOwnQueueIsEnqueuedAgain() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add)
                        .filter(header("round").isNull()).setHeader("round", constant(2))
                        .to("reliable-redis:q?mode=" + mode);
            }
        });
        String first = send("q", "later, please");

        awaitReceived(2);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received.get(1).getMessage().getBody(String.class)).isEqualTo("later, please");
        assertThat(received.get(1).getMessage().getHeader("round")).isEqualTo(2);
        assertThat(received.get(1).getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isNotEqualTo(first);
    }

    @Test
    void theChainingIdiomForwardsARedeliveredMessageOnce() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?mode=" + mode + "&retryDelay=50&maxRetryDelay=50&reaperInterval=50")
                        .setHeader(ReliableRedisConstants.DEDUPLICATION_ID, header(ReliableRedisConstants.MESSAGE_ID))
                        .to("reliable-redis:b?mode=" + mode)
                        .process(e -> {
                            if (e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) == 1) {
                                throw new IllegalStateException("fails after forwarding");
                            }
                        });
            }
        });
        String id = send("a", "order");

        awaitStats("a", 0, 0, 0, 0);
        assertThat(stats("b")).containsEntry("ready", 1L);
        assertThat(bodyOf("b", id)).isEqualTo("order");
    }

    @Test
    void anIdAckedWithinTheWindowIsNotEnqueuedAgain() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        Map<String, Object> id = Map.of(ReliableRedisConstants.DEDUPLICATION_ID, "order-7");
        send("q", "first", id);
        awaitReceived(1);
        awaitStats("q", 0, 0, 0, 0);

        send("q", "again", id);

        assertThat(stats("q")).containsEntry("ready", 0L);
        assertThat(received).hasSize(1);
    }

    @Test
    void aDelayedMessageIsDeliveredNoSoonerThanItsDelay() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&reaperInterval=50").process(received::add);
            }
        });
        long sent = System.currentTimeMillis();
        send("q", "later", Map.of(ReliableRedisConstants.DELAY, 700L));
        assertThat(stats("q")).containsEntry("delayed", 1L);

        awaitReceived(1);
        assertThat(received.get(0).getClock().getCreated() - sent).isGreaterThanOrEqualTo(700);
    }

    @Test
    void aDelayOrTimeToLiveOfMoreThanFourteenDaysFailsTheSendNamingTheHeaderAndStoresNothing() {
        long fourteenDays = Duration.ofDays(14).toMillis();
        for (String header : List.of(ReliableRedisConstants.DELAY, ReliableRedisConstants.TIME_TO_LIVE)) {
            for (Object tooLong : List.of(Long.MAX_VALUE, fourteenDays + 1)) {
                Exchange refused = template.request("reliable-redis:q?mode=" + mode, e -> {
                    e.getMessage().setBody("forever");
                    e.getMessage().setHeader(header, tooLong);
                });

                assertThat(refused.getException()).as(header + "=" + tooLong)
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(header)
                        .hasMessageContaining("'" + tooLong + "'").hasMessageContaining("14 days");
            }
        }
        assertThat(stats("q")).containsEntry("ready", 0L).containsEntry("delayed", 0L);

        send("q", "in two weeks", Map.of(ReliableRedisConstants.DELAY, fourteenDays,
                ReliableRedisConstants.TIME_TO_LIVE, fourteenDays));
        assertThat(stats("q")).containsEntry("delayed", 1L);
    }

    @Test
    void aDelayOrTimeToLiveThatIsNotAWholeNumberOfMillisecondsFailsTheSendNamingIt() {
        for (String header : List.of(ReliableRedisConstants.DELAY, ReliableRedisConstants.TIME_TO_LIVE)) {
            for (Object bad : List.of(Double.NaN, 1.5, "soon", -1L)) {
                Exchange refused = template.request("reliable-redis:q?mode=" + mode, e -> {
                    e.getMessage().setBody("when?");
                    e.getMessage().setHeader(header, bad);
                });

                assertThat(refused.getException()).as(header + "=" + bad)
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(header)
                        .hasMessageContaining("'" + bad + "'");
            }
        }
        assertThat(stats("q")).containsEntry("ready", 0L).containsEntry("delayed", 0L);

        send("q", "whole", Map.of(ReliableRedisConstants.DELAY, 2000.0, ReliableRedisConstants.TIME_TO_LIVE, "60000"));
        assertThat(stats("q")).containsEntry("delayed", 1L);
    }

    @Test
    void travellingHeadersKeepTheirTypesAndCamelHeadersStayBehind() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        Map<String, Object> headers = new HashMap<>();
        headers.put("orderId", 7L);
        headers.put("count", 3);
        headers.put("price", 9.5);
        headers.put("vip", true);
        headers.put("customer", "ACME");
        headers.put("signature", new byte[] {1, 2, 3});
        headers.put("when", new java.util.Date());
        headers.put("CamelFileName", "x.txt");
        headers.put(Exchange.HTTP_METHOD, "POST");
        headers.put("org.apache.camel.internal", "x");
        send("q", "x", headers);

        awaitReceived(1);
        Map<String, Object> got = received.get(0).getMessage().getHeaders();
        assertThat(got).containsEntry("orderId", 7L).containsEntry("count", 3).containsEntry("price", 9.5)
                .containsEntry("vip", true).containsEntry("customer", "ACME");
        assertThat((byte[]) got.get("signature")).containsExactly(1, 2, 3);
        assertThat(got).doesNotContainKeys("when", "CamelFileName", Exchange.HTTP_METHOD, "org.apache.camel.internal");
    }

    @Test
    void camelHeadersInAnyCaseStayBehind() throws Exception {
        // Camel's header map is case-insensitive: any of these that travelled would reach the route as Camel's own
        String id = send("q", "x", Map.of("CAMELFileName", "/etc/passwd", "cAmElHttpUri", "http://elsewhere",
                "ORG.apache.CAMEL.x", "x", "cAMELReliableRedisRetryAfter", 60_000L, "customer", "ACME"));

        assertThat(headersOf("q", id)).contains("customer").doesNotContainIgnoringCase("camel");
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        awaitReceived(1);
        Map<String, Object> got = received.get(0).getMessage().getHeaders();
        assertThat(got).containsEntry("customer", "ACME").doesNotContainKeys("CamelFileName", "CamelHttpUri",
                "org.apache.camel.x", ReliableRedisConstants.RETRY_AFTER);
    }

    @Test
    void aBodyOfEveryByteValueAndAFiveMegabyteBodyRoundTrip() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add);
            }
        });
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        byte[] big = new byte[5 * 1024 * 1024];
        new java.util.Random(7).nextBytes(big);
        send("q", all);
        send("q", big);

        awaitReceived(2);
        assertThat(received.get(0).getMessage().getBody(byte[].class)).isEqualTo(all);
        assertThat(received.get(1).getMessage().getBody(byte[].class)).isEqualTo(big);
    }

    @Test
    void aHundredEqualPayloadsAreAHundredDeliveries() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&concurrentConsumers=4").process(received::add);
            }
        });
        for (int i = 0; i < 100; i++) {
            send("q", "same");
        }

        awaitReceived(100);
        awaitStats("q", 0, 0, 0, 0);
        assertThat(received).extracting(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID))
                .doesNotHaveDuplicates().hasSize(100);
    }

    @Test
    void statsRedriveAndPurgeAreOperations() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&maxRetries=0&reaperInterval=50").routeId("fail")
                        .throwException(new IllegalStateException("no"));
            }
        });
        for (int i = 0; i < 5; i++) {
            send("q", "m" + i);
        }
        awaitStats("q", 0, 0, 0, 5);
        context.getRouteController().stopRoute("fail");

        Object moved = template.requestBodyAndHeaders("reliable-redis:q?mode=" + mode, null,
                Map.of(ReliableRedisConstants.OPERATION, "redrive", ReliableRedisConstants.LIMIT, 2L));
        assertThat(moved).isEqualTo(2L);
        assertThat(stats("q")).isEqualTo(Map.of("ready", 2L, "inflight", 0L, "delayed", 0L, "dead", 3L));

        send("q", "later", Map.of(ReliableRedisConstants.DELAY, 60_000L));
        Object purged = template.requestBodyAndHeader("reliable-redis:q?mode=" + mode, null, ReliableRedisConstants.OPERATION, "purge");
        assertThat(purged).isEqualTo(6L);
        assertThat(stats("q")).isEqualTo(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L, "dead", 0L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "ten"})
    void aRedriveLimitThatIsNoWholeNumberFailsTheExchangeNamingIt(String limit) {
        Object value = limit.equals("NaN") ? Double.NaN : limit;
        Exchange result = template.request("reliable-redis:q?mode=" + mode, e -> {
            e.getMessage().setHeader(ReliableRedisConstants.OPERATION, "redrive");
            e.getMessage().setHeader(ReliableRedisConstants.LIMIT, value);
        });

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ReliableRedisConstants.LIMIT + " '" + limit + "' is not a whole number")
                .hasMessageContaining("queue 'q'");
    }

    @Test
    void theProducerDoesNotShowThePasswordInItsName() throws Exception {
        var endpoint = context.getEndpoint("reliable-redis:q?mode=" + mode + "&redisUri=RAW(redis://app:hunter2@127.0.0.1:1)");
        assertThat(endpoint.createProducer().toString()).doesNotContain("hunter2").contains("q");
    }

    @Test
    void anUnknownOperationFailsTheExchangeNamingIt() {
        Exchange result = template.request("reliable-redis:q?mode=" + mode,
                e -> e.getMessage().setHeader(ReliableRedisConstants.OPERATION, "explode"));

        assertThat(result.getException()).hasMessageContaining("'explode'").hasMessageContaining("queue 'q'");
    }

    /**
     * A send that timed out: Redis is paused (CLIENT PAUSE) past the send's command timeout; what it runs of the send
     * when the pause ends is past the send's deadline and stores nothing. The error handler redelivers the exchange
     * after the pause, with the id of the timed-out send, and the redelivery stores the message, once.
     */
    @Test
    void aSendRedeliveredAfterATimeoutIsStoredOnce() throws Exception {
        String uri = "reliable-redis:orders?mode=" + mode + "&commandTimeout=300";
        routes(new RouteBuilder() {
            public void configure() {
                onException(Exception.class).maximumRedeliveries(5).redeliveryDelay(1500);
                from("direct:send").to(uri);
            }
        });
        // the endpoint's connection open, its script loaded and its clock measured before Redis pauses, so that the
        // send itself goes unanswered; the pause long enough for a cold JVM to reach Redis within it
        template.requestBody(uri, "warm-up");
        serverOf("orders").clientPause(2000);

        Exchange sent = template.request("direct:send", e -> e.getMessage().setBody("once"));

        assertThat(sent.getException()).isNull();
        assertThat(sent.getMessage().getHeader(Exchange.REDELIVERY_COUNTER, Integer.class)).isPositive();
        assertThat(sent.getMessage().getHeader(ReliableRedisConstants.ENQUEUED, Boolean.class))
                .as("the timed-out send stored nothing; the redelivery stored the message").isTrue();
        assertThat(stats("orders").get("ready")).isEqualTo(2);
    }

    /** An exchange that was redelivered once and then loops over a send enqueues in every iteration. */
    @Test
    void eachIterationOfALoopOverASendEnqueuesAfterARedelivery() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("direct:loop").loop(3).to("reliable-redis:orders?mode=" + mode);
            }
        });

        template.sendBodyAndHeader("direct:loop", "again", Exchange.REDELIVERY_COUNTER, 1);

        assertThat(stats("orders").get("ready")).isEqualTo(3);
    }

    @Test
    void aSendThatDoesNotReachRedisFailsTheExchangeWithinTheCommandTimeoutNamingTheQueue() {
        RedisProcess nothing = RedisProcess.onFreePort();
        long start = System.nanoTime();

        Exchange result = template.request(
                "reliable-redis:orders?mode=" + mode + "&commandTimeout=1000&redisUri=redis://127.0.0.1:" + nothing.port(),
                e -> e.getMessage().setBody("lost?"));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(result.getException()).hasMessageContaining("enqueue on queue 'orders' failed");
    }
}
