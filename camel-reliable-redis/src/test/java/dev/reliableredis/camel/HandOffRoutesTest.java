package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.KillArgs;
import io.lettuce.core.Range;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * exactlyOnce=true from a route's point of view (list mode, and stream mode where marked, one Redis; on a Redis
 * Cluster in {@link HandOffRoutesClusterTest}): what a route sends is enqueued by the ack of the message it consumed,
 * under ids derived from that message's, and by nothing else: not by a failed attempt, a dead-lettering, a zombie
 * whose lease expired, or a consumer JVM killed mid-route.
 */
class HandOffRoutesTest extends CamelRedisTestBase {

    private static final String TO_B = "reliable-redis:b?exactlyOnce=true";

    /** What b's ready list held when each attempt looked, in the order they looked. */
    private final List<Long> seenInB = new CopyOnWriteArrayList<>();

    private List<String> readyIn(String queue) {
        return raw.lrange(key(queue, "ready"), 0, -1);
    }

    /** The ids of the messages waiting in the queue: its ready list, or its stream's entries in stream mode. */
    private List<String> sentTo(String queue) {
        return streamMode() ? raw.xrange(key(queue, "stream"), Range.create("-", "+")).stream()
                .map(e -> e.getBody().get("id")).toList() : readyIn(queue);
    }

    /** Waits until b holds exactly what the route sent for the message {@code id}: id/b/0 to id/b/(count - 1). */
    private void awaitSentToB(String id, int count) {
        List<String> sent = IntStream.range(0, count).mapToObj(i -> id + "/b/" + i).toList();
        await().atMost(Duration.ofSeconds(15)).until(() -> sentTo("b").equals(sent));
    }

    @Test
    void theAckOfTheConsumedMessageEnqueuesWhatTheRouteSent() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a").to(TO_B).process(e -> seenInB.add(raw.llen(key("b", "ready"))))
                        .process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        awaitSentToB(id, 1);
        assertThat(seenInB).as("held until the ack").containsExactly(0L);
        Exchange exchange = received.get(0);
        assertThat(exchange.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo(id + "/b/0");
        assertThat(exchange.getMessage().getHeaders()).doesNotContainKey(ReliableRedisConstants.ENQUEUED);
        assertThat(bodyOf("b", id + "/b/0")).isEqualTo("order 1");
        awaitStats("a", 0, 0, 0, 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aFailedAttemptEnqueuesNothingAndTheAttemptThatCompletesEnqueuesOnce(String mode) throws Exception {
        this.mode = mode;
        String toB = TO_B + "&mode=" + mode;
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=2&retryDelay=10&mode=" + mode).to(toB).to(toB).process(e -> {
                    seenInB.add((long) sentTo("b").size());
                    if (deliveryCount(e) == 1) {
                        throw new IllegalStateException("after the sends");
                    }
                }).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        awaitSentToB(id, 2);
        assertThat(seenInB).containsExactly(0L, 0L);
        assertThat(bodyOf("b", id + "/b/1")).isEqualTo("order 1");
        awaitStats("a", 0, 0, 0, 0);
    }

    /**
     * A hand-off target whose endpoint checked the shard count before a reshard of its queue from 1 to 2: the
     * hand-off script reads the target's marker and refuses, and the ack does not land either; the refusal is reported.
     */
    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aHandOffToATargetThatCheckedBeforeItsReshardIsRefusedStoringNothing(String mode) throws Exception {
        this.mode = mode;
        String toB = TO_B + "&mode=" + mode;
        List<String> reported = recordOutages();
        assertThat(template.request(toB, e -> e.getMessage().setBody("before")).getException()).isNull();
        reshard("reliable-redis:b?mode=" + mode + "&commandTimeout=4000", 2);

        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?mode=" + mode + "&exceptionHandler=#recordingHandler").to(toB)
                        .process(received::add);
            }
        });
        send("a", "order 1");

        await("the refused hand-off reported").atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(reported)
                .anySatisfy(r -> assertThat(r).contains("Queue 'b' has 2 shard(s)").contains("shards=1")));
        assertThat(stored("b") + stored("b#1")).as("stored in b").isEqualTo(1);
        assertThat(stats("a").get("inflight")).as("the consumed message, not acked").isEqualTo(1L);
        // the refused hand-off is retried while its lease is held: the stop need not wait for it
        context.getShutdownStrategy().setTimeout(1);
    }

    /** The messages stored in a queue's ready list, or its stream. */
    private long stored(String queue) {
        return streamMode() ? raw.xlen(key(queue, "stream")) : raw.llen(key(queue, "ready"));
    }

    @Test
    void aDeadLetteredMessageHandsNothingOn() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=1&retryDelay=10").to(TO_B).process(e -> {
                    throw new IllegalStateException("always");
                });
            }
        });

        send("a", "order 1");

        awaitStats("a", 0, 0, 0, 1);
        assertThat(raw.exists(key("b", "ready"), key("b", "messages"))).isZero();
    }

    @Test
    void aSplitIntoThreeThatFailsHalfWayHandsOnTheThreePartsOnceWhenItCompletes() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=2&retryDelay=10").split(body().tokenize(",")).stopOnException()
                        .process(e -> seenInB.add(raw.llen(key("b", "ready")))).to(TO_B).process(e -> {
                            if (e.getProperty(Exchange.SPLIT_INDEX, Integer.class) == 1 && deliveryCount(e) == 1) {
                                throw new IllegalStateException("half-way");
                            }
                        }).end().process(received::add);
            }
        });

        String id = send("a", "x,y,z");

        awaitReceived(1);
        awaitSentToB(id, 3);
        assertThat(seenInB).as("two parts of the failed attempt, three of the one that completed")
                .containsExactly(0L, 0L, 0L, 0L, 0L);
        assertThat(List.of(bodyOf("b", id + "/b/0"), bodyOf("b", id + "/b/1"), bodyOf("b", id + "/b/2")))
                .containsExactly("x", "y", "z");
    }

    @Test
    void aZombieWhoseLeaseExpiredEnqueuesNothingWhileTheRedeliveryEnqueuesOnce() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?visibilityTimeout=1000&extendVisibility=false&concurrentConsumers=2"
                     + "&reaperInterval=100").to(TO_B).process(e -> {
                         if (deliveryCount(e) == 1) {
                             // the route's work outlasts the lease: it ends once the message ran again
                             await("the redelivery").atMost(Duration.ofSeconds(15)).until(() -> !received.isEmpty());
                         }
                     }).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(2);
        assertThat(received).extracting(CamelRedisTestBase::deliveryCount).containsExactly(2, 1);
        awaitSentToB(id, 1);
        awaitStats("a", 0, 0, 0, 0);
        ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoutes().get(0).getConsumer();
        await().atMost(Duration.ofSeconds(15)).until(() -> consumer.getRefusedSettlementCount() == 1);
        assertThat(readyIn("b")).containsExactly(id + "/b/0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aConsumerJvmKilledMidRouteHandsNothingOnAndTheRedeliveryHandsOnOnce(String mode) throws Exception {
        this.mode = mode;
        // the child JVM's component has no slot group of its own
        String inGroup = slotGroup == null ? "" : "&slotGroup=" + slotGroup;
        String endpoint = "reliable-redis:a?visibilityTimeout=1500&reaperInterval=100&mode=" + mode + inGroup;
        String toB = TO_B + "&mode=" + mode + inGroup;
        String id = send("a", "order 1");
        ConsumerJvm victim = ConsumerJvm.start(redisUri(), endpoint, "hang-after:" + toB);
        try {
            await("the victim sent and hangs").atMost(Duration.ofSeconds(30)).until(() -> !victim.processed().isEmpty());
        } finally {
            victim.kill();
        }
        assertThat(sentTo("b")).isEmpty();

        routes(new RouteBuilder() {
            public void configure() {
                from(endpoint).to(toB).process(received::add);
            }
        });

        awaitReceived(1);
        assertThat(deliveryCount(received.get(0))).isEqualTo(2);
        awaitSentToB(id, 1);
    }

    @Test
    void aCommitThatTimedOutStoresNothingWhenRedisResumesAndItsRetryEnqueuesTheSendsOnce() throws Exception {
        try (RedisProcess own = RedisProcess.start()) {
            String on = "redisUri=" + own.uri() + "&commandTimeout=500";
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:a?visibilityTimeout=30000&" + on).routeId("paused")
                            .to("reliable-redis:b?exactlyOnce=true&" + on)
                            // the commit goes out once the exchange is done: Redis runs it after its deadline
                            .process(e -> {
                                if (e.getMessage().getBody(String.class).equals("order 2")) {
                                    own.pause();
                                }
                            }).process(received::add);
                }
            });
            // the first hand-off loads the script, so that the one whose reply is lost is carried out, not
            // answered NOSCRIPT
            template.sendBody("reliable-redis:a?" + on, "order 1");
            await().atMost(Duration.ofSeconds(15)).until(() -> own.commands().llen(key("b", "ready")) == 1);
            template.sendBody("reliable-redis:a?" + on, "order 2");
            awaitReceived(2);
            ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("paused").getConsumer();
            // the commit went out as the exchange ended, right after the pause: the first call to time out
            await("a call timed out").atMost(Duration.ofSeconds(15))
                    .until(() -> consumer.redisState().outage() != null);
            own.resume();

            await().atMost(Duration.ofSeconds(15)).until(() -> own.commands().exists(key("a", "messages"),
                    key("a", "inflight")) == 0);
            List<String> sent = received.stream()
                    .map(e -> e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class)).toList();
            assertThat(sent).allMatch(id -> id.endsWith("/b/0"));
            assertThat(own.commands().lrange(key("b", "ready"), 0, -1)).containsExactlyElementsOf(sent);
            assertThat(consumer.getRefusedSettlementCount()).as("the commit Redis ran late acked nothing, so its "
                    + "retry is not refused").isZero();
        }
    }

    @Test
    void aCommitOnAConnectionThatWasCutIsRetriedOnceItIsBack() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a").to(TO_B)
                        .process(e -> onEveryServer(server -> server.clientKill(KillArgs.Builder.typeNormal()
                                .skipme())))
                        .process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        awaitSentToB(id, 1);
        awaitStats("a", 0, 0, 0, 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aHandOffToKeysTheConsumersUserMayNotWriteFailsTheDeliveryUntilItIsDeadLetteredAndSendsNothing(String mode)
            throws Exception {
        this.mode = mode;
        // the consumed queue's keys only, as a user guide's per-queue rule gives them
        String rule = LeastPrivilegeUser.RULE.replace("~rr:*", "~" + key("a", "*"))
                      + (cluster == null ? "" : " " + LeastPrivilegeUser.CLUSTER_RULE);
        onEveryServer(server -> LeastPrivilegeUser.create(server, "orders-only", "orders-only-pw", rule));
        String as = "&mode=" + mode + "&username=orders-only&password=orders-only-pw";

        String id = completesButCannotHandOff("reliable-redis:a?maxRetries=1&retryDelay=10" + as, TO_B + as);

        assertThat(failureOf("a", id)).contains("NOPERM", "handoff.lua");
        assertThat(sentTo("b")).isEmpty();
        assertThat(raw.exists(key("b", "messages"), key("b", "ids"))).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aHandOffToAWrongTypedKeyFailsTheDeliveryUntilItIsDeadLetteredAndSendsNothing(String mode) throws Exception {
        this.mode = mode;
        String wrongTyped = key("b", streamMode() ? "stream" : "ready");
        raw.set(wrongTyped, "not a queue's");

        String id = completesButCannotHandOff("reliable-redis:a?maxRetries=1&retryDelay=10&mode=" + mode,
                TO_B + "&mode=" + mode);

        assertThat(failureOf("a", id)).contains("WRONGTYPE", wrongTyped);
        assertThat(raw.get(wrongTyped)).isEqualTo("not a queue's");
        assertThat(raw.exists(key("b", "messages"), key("b", "ids"))).isZero();
    }

    /**
     * Runs a route that completes each delivery of a message after sending it on through {@code to}, until the
     * message is dead-lettered; returns its id. Each attempt completed: it is the ack that Redis refused.
     */
    private String completesButCannotHandOff(String from, String to) throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(from).to(to).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitStats("a", 0, 0, 0, 1);
        assertThat(received).extracting(CamelRedisTestBase::deliveryCount).containsExactly(1, 2);
        return id;
    }

    @Test
    void aSendToAQueueThatCannotTakeAHandOffGoesOutAtOnceUnderItsDerivedIdOnce() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:a?maxRetries=2&retryDelay=10").to("reliable-redis:c?mode=stream&exactlyOnce=true")
                        .process(failingTheFirstDelivery("after the send")).process(received::add);
            }
        });

        String id = send("a", "order 1");

        awaitReceived(1);
        assertThat(raw.xrange(key("c", "stream"), Range.create("-", "+"))).extracting(e -> e.getBody().get("id"))
                .as("sent at the first attempt, a no-op at the second").containsExactly(id + "/c/0");
        awaitStats("a", 0, 0, 0, 0);
    }

    /**
     * A send to a queue of the other mode, which cannot take the hand-off, that fails: Redis is paused (CLIENT PAUSE)
     * past the send's command timeout, and runs the enqueue past its deadline when the pause ends, storing nothing.
     * The error handler redelivers the send after the pause under the derived id of the failed send, and the second
     * send to that queue in the same delivery still takes the next id.
     */
    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void aFallbackSendRedeliveredAfterALostReplyIsStoredOnceAndTheNextSendIsStoredToo(String mode) throws Exception {
        this.mode = mode;
        String toC = "reliable-redis:c?exactlyOnce=true&commandTimeout=300&mode=" + (streamMode() ? "list" : "stream");
        routes(new RouteBuilder() {
            public void configure() {
                onException(Exception.class).maximumRedeliveries(5).redeliveryDelay(1500);
                from("reliable-redis:a?mode=" + mode).process(e -> serverOf("c").clientPause(1000)).to(toC).to(toC)
                        .process(received::add);
            }
        });
        // the endpoint's connection open and the enqueue script loaded before Redis pauses, so that the send itself
        // goes unanswered and is carried out, not answered NOSCRIPT
        String before = template.request(toC, e -> e.getMessage().setBody("before"))
                .getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);

        String id = send("a", "order 1");

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getHeader(Exchange.REDELIVERY_COUNTER, Integer.class)).isPositive();
        List<String> inC = streamMode() ? readyIn("c") : raw.xrange(key("c", "stream"), Range.create("-", "+"))
                .stream().map(e -> e.getBody().get("id")).toList();
        assertThat(inC).containsExactly(before, id + "/c/0", id + "/c/1");
    }
}
