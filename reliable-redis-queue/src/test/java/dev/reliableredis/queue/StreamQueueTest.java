package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.CommandStats;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The stream-mode scripts, each through the engine API, against a real redis-server. */
class StreamQueueTest extends QueueTestBase {

    private static final String STREAM = "rr:{orders}:stream";
    private static final String DEAD = "rr:{orders}:dead";

    private StreamQueue orders(long visibilityMs, int maxRetries, long retryDelayMs, String consumer) {
        return streamQueue("orders", settings(visibilityMs, maxRetries, retryDelayMs), group("g", consumer));
    }

    @Test
    void enqueueAddsAnEntryWithBodyIdHeadersAndEnqueueTime() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        assertThat(q.enqueue(new NewMessage("m1", "hello".getBytes(), Map.of("n", 7L), 0))).isTrue();

        List<StreamMessage<String, String>> entries = raw.xrange(STREAM, io.lettuce.core.Range.create("-", "+"));
        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).getBody()).containsEntry("body", "hello").containsEntry("id", "m1")
                .containsEntry("headers", "{\"n\":[\"Long\",\"7\"]}").containsKey("enqueued");
        assertThat(raw.hget("rr:{orders}:ids", "m1")).isEqualTo(entries.get(0).getId());
    }

    @Test
    void claimCreatesTheGroupAndDeliversUnderALeaseOfOwnerAndCount() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(message("m1", "a"));
        q.enqueue(message("m2", "b"));

        List<Delivery> claimed = q.claim(10);

        assertThat(claimed).extracting(Delivery::messageId).containsExactly("m1", "m2");
        assertThat(claimed).extracting(Delivery::deliveryCount).containsOnly(1);
        assertThat(claimed).extracting(d -> d.lease().token()).containsOnly("1");
        assertThat(raw.xpending(STREAM, "g").getCount()).isEqualTo(2);
        QueueStats stats = q.stats();
        assertThat(stats).extracting(QueueStats::ready, QueueStats::inflight, QueueStats::delayed, QueueStats::dead)
                .containsExactly(0L, 2L, 0L, 0L);
        assertThat(stats.oldestPendingAge()).isBetween(0L, 10_000L);
    }

    @Test
    void aLeaseBehindMoreWaitingRetriesThanStatsLookAtStillAges() {
        StreamQueue q = orders(30_000, 3, 60_000, "c1");
        enqueueAndFail(q, ids("r", 150));
        q.enqueue(message("held", "y"));
        assertThat(q.claim(1)).extracting(Delivery::messageId).containsExactly("held");
        long claimedAt = now();

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> now() - claimedAt >= 200);

        // the 150 retries come first by entry id, parked with the retry consumer
        assertThat(q.stats().oldestInflightAge()).isGreaterThanOrEqualTo(200L);
    }

    @Test
    void ackRemovesTheEntryRemembersTheIdAndRefusesALateAck() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "a"));

        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);
        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.REFUSED);

        assertThat(raw.xlen(STREAM)).isZero();
        assertThat(raw.hexists("rr:{orders}:ids", "m1")).isFalse();
        assertThat(raw.zscore("rr:{orders}:acked", "m1")).isNotNull();
        assertThat(q.enqueue(message("m1", "again"))).isFalse();
    }

    @Test
    void enqueueIsANoOpWhileTheIdIsInTheStreamDelayedOrDead() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.enqueue(message("m1", "a"));
        assertThat(q.enqueue(message("m1", "b"))).isFalse();
        q.enqueue(new NewMessage("later", "x".getBytes(), null, 60_000));
        assertThat(q.enqueue(message("later", "y"))).isFalse();

        Delivery d = q.claim(1).get(0);
        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);
        assertThat(q.enqueue(message("m1", "c"))).isFalse();
        assertThat(q.stats().dead()).isEqualTo(1);
    }

    /**
     * Whether each id is known is read with one command per key for the whole call; a stream entry is looked up only
     * for an id that names one (here the one known id: its entry is still in the stream).
     */
    @Test
    void aBatchLooksItsIdsUpWithOneReadPerKey() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.enqueue(message("known", "a"));
        raw.configResetstat();

        List<NewMessage> batch = IntStream.range(0, 20).mapToObj(i -> message(i == 7 ? "known" : "m" + i, "x"))
                .toList();
        assertThat(q.enqueue(batch)).containsOnlyOnce(false);

        assertThat(CommandStats.of(raw, "hget", "calls")).isZero();
        assertThat(CommandStats.of(raw, "zscore", "calls")).isZero();
        assertThat(CommandStats.of(raw, "hmget", "calls")).isEqualTo(1);
        assertThat(CommandStats.of(raw, "zmscore", "calls")).isEqualTo(2);
        assertThat(CommandStats.of(raw, "xrange", "calls")).isEqualTo(1);
    }

    /** With no retry due, an ack leaves the retry set alone; its reads check the types of what it writes. */
    @Test
    void anAckWithoutRetriesTouchesNoRetrySet() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(IntStream.range(0, 10).mapToObj(i -> message("m" + i, "x")).toList());
        List<Delivery> claimed = q.claim(10);
        raw.configResetstat();

        assertThat(q.ack(claimed.stream().map(Delivery::lease).toList())).hasSize(10).containsOnly(Settled.ACKED);

        assertThat(CommandStats.of(raw, "zrem", "calls")).isZero();
        assertThat(CommandStats.of(raw, "type", "calls")).as("the acked set's").isEqualTo(1);
        assertThat(raw.hlen(key("orders", "ids"))).isZero();
    }

    /**
     * The group's lag, which only XINFO GROUPS gives, is read where the share can make a part smaller: not for a lone
     * claimant, which takes what is ready either way, but for two, which split it.
     */
    @Test
    void aClaimReadsTheGroupsLagOnlyWhereTheShareNeedsIt() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(IntStream.range(0, 4).mapToObj(i -> message("m" + i, "x")).toList());
        raw.configResetstat();

        assertThat(q.claim(1)).hasSize(1);
        assertThat(CommandStats.of(raw, "xinfo|groups", "calls")).as("a lone claimant").isZero();

        Claimed claimed = q.claim(new Claimant("a", Duration.ofSeconds(5)),
                List.of(new Claimant("a", Duration.ofSeconds(5)), new Claimant("b", Duration.ofSeconds(5))), 10,
                new ClaimId());
        assertThat(CommandStats.of(raw, "xinfo|groups", "calls")).as("two claimants").isEqualTo(1);
        assertThat(claimed.part(0)).as("3 ready, 3 live: the first claimant's thread counts too").hasSize(1);
        assertThat(claimed.part(1)).hasSize(1);
    }

    @Test
    void aFailedEntryStaysPendingAndIsDeliveredAgainWhenItsRetryIsDue() {
        StreamQueue q = orders(30_000, 3, 200, "c1");
        Delivery first = enqueueAndClaim(q, message("m1", "a"));

        assertThat(q.nack(List.of(new Failure(first.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);
        assertThat(q.claim(1)).isEmpty();
        assertThat(q.stats()).extracting(QueueStats::inflight, QueueStats::delayed).containsExactly(0L, 1L);

        await().atMost(Duration.ofSeconds(5)).until(() -> q.stats().ready() == 1);
        assertOnlyTheRedeliverySettles(q, first, q);
    }

    @Test
    void usedUpDeliveriesMoveTheEntryToTheDeadLetterStreamAtomically() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.enqueue(new NewMessage("m1", "payload".getBytes(), Map.of("k", "v"), 0));
        Delivery d = q.claim(1).get(0);

        assertThat(q.nack(List.of(new Failure(d.lease(), "java.lang.IllegalStateException: no"))))
                .containsExactly(Settled.DEAD_LETTERED);

        List<StreamMessage<String, String>> dead = raw.xrange(DEAD, io.lettuce.core.Range.create("-", "+"));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getBody()).containsEntry("origin_id", d.lease().ref()).containsEntry("content", "payload")
                .containsEntry("failure", "java.lang.IllegalStateException: no").containsEntry("deliveries", "1")
                .containsEntry("id", "m1").containsEntry("headers", "{\"k\":[\"String\",\"v\"]}");
        assertThat(raw.xpending(STREAM, "g").getCount()).isZero();
        assertThat(raw.xlen(STREAM)).isZero();

        Delivery letter = q.deadLetters().claim(1).get(0);
        assertThat(letter.messageId()).isEqualTo("m1");
        assertThat(letter.failure()).isEqualTo("java.lang.IllegalStateException: no");
        assertThat(new String(letter.body())).isEqualTo("payload");
        assertThat(letter.headers()).containsEntry("k", "v");
        assertThat(q.stats()).extracting(QueueStats::inflight, QueueStats::dead).containsExactly(1L, 0L);
        assertThat(q.deadLetters().ack(List.of(letter.lease()))).containsExactly(Settled.ACKED);
        assertThat(raw.xlen(DEAD)).isZero();
    }

    @Test
    void theReaperTakesOverAnIdleEntryAndTheDeliveryOfTheDeadConsumerCounts() {
        StreamQueue crashed = orders(200, 3, 1000, "crashed");
        StreamQueue survivor = orders(200, 3, 1000, "survivor");
        Delivery lost = enqueueAndClaim(crashed, message("m1", "a"));

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> survivor.reap().expiredReturned() == 1);
        assertOnlyTheRedeliverySettles(crashed, lost, survivor);
    }

    @Test
    void aDeadConsumersEntryIsTakenOverInTheFirstReapHoweverManyEntriesWaitForARetry() {
        StreamQueue crashed = orders(500, 3, 60_000, "crashed");
        StreamQueue survivor = orders(500, 3, 60_000, "survivor");
        for (int i = 0; i <= 1000; i++) {
            crashed.enqueue(message("m" + i, "x"));
        }
        List<Delivery> claimed = new ArrayList<>(crashed.claim(1000));
        claimed.addAll(crashed.claim(1));
        // ten times the reaper's batch wait for their retry, all older than the dead consumer's entry
        assertThat(crashed.nack(claimed.subList(0, 1000).stream().map(d -> new Failure(d.lease(), "later")).toList()))
                .containsOnly(Settled.RETRY_SCHEDULED);
        await("the lease of m1000 expires").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> raw.xpending(STREAM, io.lettuce.core.Consumer.from("g", "crashed"),
                        io.lettuce.core.Range.create("-", "+"), io.lettuce.core.Limit.from(1)).get(0)
                        .getMsSinceLastDelivery() > 500);

        ReapResult reaped = survivor.reap();

        assertThat(reaped.expiredReturned()).isEqualTo(1);
        assertThat(survivor.claim(1).get(0).messageId()).isEqualTo("m1000");
    }

    @Test
    void aNackedEntryWaitsWithTheRetryConsumerAndItsLateSettlementsAreRefused() {
        StreamQueue q = orders(30_000, 3, 60_000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));

        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);

        assertThat(raw.xpending(STREAM, "g").getConsumerMessageCount()).containsOnlyKeys("(retry)");
        assertThat(q.extend(List.of(d.lease()))).containsExactly(Settled.REFUSED);
        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.REFUSED);
    }

    @Test
    void anEntryWhoseConsumerKeepsDyingIsDeadLetteredWithLeaseExpired() {
        StreamQueue q = orders(100, 1, 1000, "c1");
        q.enqueue(message("m1", "a"));
        q.claim(1);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> q.reap().total() > 0);
        assertThat(q.claim(1).get(0).deliveryCount()).isEqualTo(2);

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> q.reap().expiredDeadLettered() == 1);

        var dead = raw.xrange(DEAD, io.lettuce.core.Range.create("-", "+"));
        assertThat(dead.get(0).getBody()).containsEntry("failure", "lease expired").containsEntry("deliveries", "2");
    }

    @Test
    void extendKeepsAnEntryFromBeingTakenOver() {
        StreamQueue q = orders(300, 3, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "a"));
        long until = System.currentTimeMillis() + 1000;
        while (System.currentTimeMillis() < until) {
            assertThat(q.extend(List.of(d.lease()))).containsExactly(Settled.EXTENDED);
            assertThat(q.reap().expiredReturned()).isZero();
            await().pollDelay(Duration.ofMillis(100)).until(() -> true);
        }
        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);
    }

    @Test
    void releaseGivesAnUnstartedDeliveryBackWithItsCountUndone() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "a"));

        assertThat(q.release(List.of(d.lease()))).isEqualTo(1);

        Delivery again = q.claim(1).get(0);
        assertThat(again.deliveryCount()).isEqualTo(1);
    }

    @Test
    void aDelayedMessageIsAddedToTheStreamByTheReaperWhenDue() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(new NewMessage("later", "x".getBytes(), Map.of("h", 1), 300));
        assertThat(raw.xlen(STREAM)).isZero();
        assertThat(q.stats().delayed()).isEqualTo(1);

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> q.reap().delayedReleased() == 1);
        Delivery d = q.claim(1).get(0);
        assertThat(d.messageId()).isEqualTo("later");
        assertThat(d.headers()).containsEntry("h", 1);
    }

    @Test
    void aMalformedDelayedMessageIsShownAndDeadLetteredAloneAndTheOthersReleased() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(new NewMessage("before", "a".getBytes(), null, 1));
        // not msgpack at all, and msgpack of other values than enqueue packs
        raw.hset("rr:{orders}:delayed-msg", Map.of("cut", "\u00da", "json", "{\"body\":\"x\"}"));
        raw.zadd("rr:{orders}:delayed", 0, "cut");
        raw.zadd("rr:{orders}:delayed", 0, "json");
        // due a millisecond later than "before" even when both are sent within the same millisecond: the delayed set
        // orders equal times by id, and "after" sorts before "before"
        q.enqueue(new NewMessage("after", "b".getBytes(), null, 2));
        String failure = "malformed record: a delayed message that is not {body, headers, enqueued[, expires]} packed";

        List<BrowsedMessage> delayed = q.browse(QueueSection.DELAYED, 10);
        assertThat(delayed).extracting(m -> m.messageId() + ": " + m.failure())
                .containsExactly("cut: " + failure, "json: " + failure, "before: null", "after: null");
        assertThat(delayed.get(1)).extracting(m -> new String(m.body()), BrowsedMessage::age)
                .containsExactly("{\"body\":\"x\"}", -1L);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> {
            q.reap();
            return raw.xlen(STREAM) == 2;
        });

        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("before", "after");
        assertThat(raw.xrange(DEAD, io.lettuce.core.Range.create("-", "+"))).extracting(StreamMessage::getBody)
                .extracting(letter -> letter.get("id") + ": " + letter.get("failure") + ", " + letter.get("content"))
                .containsExactly("cut: " + failure + ", \u00da", "json: " + failure + ", {\"body\":\"x\"}");
        assertThat(q.stats()).extracting(QueueStats::delayed, QueueStats::dead).containsExactly(0L, 2L);
    }

    @Test
    void anEntryWrittenByAnotherProgramIsDeliveredWithItsFieldsAsTheBody() {
        StreamQueue q = streamQueue("orders", settings(30_000, 3, 1000),
                new StreamOptions("order_stream", "order_dlq", "order_group", "0", "c1", 0, true));
        String entry = raw.xadd("order_stream", Map.of("order_id", "7", "amount", "12"));

        Delivery d = q.claim(10).get(0);

        assertThat(d.messageId()).isEqualTo(entry);
        assertThat(d.fields()).containsEntry("order_id", "7").containsEntry("amount", "12");
        assertThat(q.nack(List.of(new Failure(d.lease(), "bad")))).containsExactly(Settled.RETRY_SCHEDULED);
    }

    @Test
    void aBrowsedEntryWrittenByAnotherProgramHasItsFieldsAsTheBody() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        String entry = raw.xadd(STREAM, Map.of("order_id", "7", "amount", "12"));

        BrowsedMessage browsed = q.browse(QueueSection.READY, 10).get(0);

        assertThat(browsed.messageId()).isEqualTo(entry);
        assertThat(browsed.fields()).isEqualTo(Map.of("order_id", "7", "amount", "12"));
        assertThat(browsed.headers()).isEmpty();
        assertThat(browsed.age()).isBetween(0L, now() - Long.parseLong(entry.split("-")[0]));
    }

    @Test
    void browseSkipsARetryWhoseEntryWasDeleted() {
        StreamQueue q = orders(30_000, 3, 60_000, "c1");
        q.enqueue(List.of(message("gone", "x"), message("kept", "y")));
        List<Delivery> claimed = q.claim(2);
        q.nack(claimed.stream().map(d -> new Failure(d.lease(), "later")).toList());
        raw.xdel(STREAM, claimed.get(0).lease().ref());

        assertThat(q.browse(QueueSection.DELAYED, 10)).extracting(BrowsedMessage::messageId).containsExactly("kept");
    }

    @Test
    void everyGroupGetsEveryMessageAndTheEntryIsDeletedWhenAllHaveAcked() {
        StreamQueue billing = streamQueue("orders", settings(30_000, 3, 1000), group("billing", "b1"));
        StreamQueue shipping = streamQueue("orders", settings(30_000, 3, 1000), group("shipping", "s1"));
        billing.claim(1);
        shipping.claim(1);
        Delivery b = enqueueAndClaim(billing, message("m1", "a"));
        Delivery s = shipping.claim(1).get(0);
        assertThat(b.messageId()).isEqualTo(s.messageId()).isEqualTo("m1");
        billing.ack(List.of(b.lease()));
        assertThat(raw.xlen(STREAM)).isEqualTo(1);
        shipping.ack(List.of(s.lease()));
        assertThat(raw.xlen(STREAM)).isZero();
    }

    @Test
    void redriveMovesDeadLettersBackAsNewEntries() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.enqueue(message("m1", "a"));
        q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "boom")));

        assertThat(q.redrive(10)).isEqualTo(1);

        assertThat(raw.xlen(DEAD)).isZero();
        Delivery again = q.claim(1).get(0);
        assertThat(again.messageId()).isEqualTo("m1");
        assertThat(again.deliveryCount()).isEqualTo(1);
        assertThat(new String(again.body())).isEqualTo("a");
    }

    @Test
    void purgeRemovesUnreadWaitingDelayedAndDeadButNotInFlight() {
        StreamQueue q = orders(30_000, 3, 60_000, "c1");
        for (String id : List.of("inflight", "retry", "dead")) {
            q.enqueue(message(id, "x"));
        }
        List<Delivery> claimed = q.claim(3);
        q.nack(List.of(new Failure(claimed.get(1).lease(), "later")));
        raw.xadd(DEAD, Map.of("origin_id", "1-1", "content", "{}", "failure", "x", "deliveries", "4"));
        q.enqueue(message("unread", "x"));
        q.enqueue(new NewMessage("delayed", "x".getBytes(), null, 60_000));

        assertThat(q.purge()).isEqualTo(4);

        assertThat(q.stats()).extracting(QueueStats::ready, QueueStats::inflight, QueueStats::delayed, QueueStats::dead)
                .containsExactly(0L, 2L, 0L, 0L);
        assertThat(q.ack(List.of(claimed.get(0).lease()))).containsExactly(Settled.ACKED);
    }

    @Test
    void redriveSkipsADeadLetterBeingProcessedAndEnds() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        assertThat(enqueueAndFail(q, List.of("d1", "d2"))).containsOnly(Settled.DEAD_LETTERED);
        Delivery beingProcessed = q.deadLetters().claim(1).get(0);

        assertThat(q.redrive(1)).isEqualTo(1);
        assertThat(q.redrive(10)).isZero();

        assertThat(beingProcessed.messageId()).isEqualTo("d1");
        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("d2");
    }

    @Test
    void aDeadLetterWaitingForItsRetryCanBeRedrivenAndPurged() {
        StreamQueue q = orders(30_000, 0, 60_000, "c1");
        assertThat(enqueueAndFail(q, List.of("d1", "d2"))).containsOnly(Settled.DEAD_LETTERED);
        for (Delivery letter : q.deadLetters().claim(2)) {
            q.deadLetters().nack(List.of(new Failure(letter.lease(), "still broken")));
        }
        assertThat(q.stats().dead()).isEqualTo(2);

        assertThat(q.redrive(1)).isEqualTo(1);
        assertThat(q.purge()).isEqualTo(2);
        assertThat(q.stats()).extracting(QueueStats::ready, QueueStats::inflight, QueueStats::delayed, QueueStats::dead)
                .containsExactly(0L, 0L, 0L, 0L);
    }

    @Test
    void anEntryTrimmedAwayWhilePendingStillLeavesADeadLetter() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));
        raw.xdel(STREAM, d.lease().ref());

        assertThat(q.nack(List.of(new Failure(d.lease(), "boom")))).containsExactly(Settled.DEAD_LETTERED);

        var letter = raw.xrange(DEAD, io.lettuce.core.Range.create("-", "+")).get(0).getBody();
        assertThat(letter).containsEntry("origin_id", d.lease().ref()).containsEntry("content", "")
                .containsEntry("failure", "boom (the entry was no longer in the stream)");
    }

    @Test
    void aForeignEntryWithAnIdFieldButNoBodyIsNotTakenForOneOfOurs() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.enqueue(message("42", "ours"));
        raw.xadd(STREAM, Map.of("id", "42", "amount", "12"));
        raw.xadd(STREAM, Map.of("id", "42", "content", "x"));
        List<Delivery> all = q.claim(3);

        assertThat(q.ack(List.of(all.get(1).lease(), all.get(2).lease())))
                .containsExactly(Settled.ACKED, Settled.ACKED);

        assertThat(all.get(1).fields()).containsEntry("id", "42");
        assertThat(raw.hexists("rr:{orders}:ids", "42")).isTrue();
        assertThat(raw.zscore("rr:{orders}:acked", "42")).isNull();
    }

    @Test
    void anEntryWhoseExpiresIsNotANumberIsDeadLetteredSayingSoAndTheRestOfTheBatchDelivered() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(message("first", "a"));
        raw.xadd(STREAM, "body", "x", "id", "bad", "enqueued", "1700000000000", "expires", "tomorrow");
        q.enqueue(message("last", "b"));

        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("first", "last");
        assertThat(raw.xrange(DEAD, io.lettuce.core.Range.create("-", "+"))).singleElement()
                .satisfies(letter -> assertThat(letter.getBody()).containsEntry("id", "bad")
                        .containsEntry("content", "x").containsEntry("deliveries", "0")
                        .containsEntry("failure", "malformed record: expires 'tomorrow' is not a number"));
        assertThat(raw.xpending(STREAM, "g").getCount()).isEqualTo(2);
    }

    @Test
    void aDeadLetterWhoseOriginIdIsNoEntryIdIsDeliveredWithTheOthers() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        String forged = raw.xadd(DEAD, "origin_id", "not-an-entry", "content", "forged", "failure", "x",
                "deliveries", "4");
        raw.xadd(DEAD, "origin_id", "1700000000000-0", "content", "fine", "failure", "y", "deliveries", "1");

        assertThat(q.browse(QueueSection.DEAD, 10)).extracting(m -> new String(m.body()))
                .containsExactly("forged", "fine");
        List<Delivery> letters = q.deadLetters().claim(10);

        assertThat(letters).extracting(d -> new String(d.body())).containsExactly("forged", "fine");
        assertThat(letters).extracting(Delivery::enqueuedAt)
                .containsExactly(Long.parseLong(forged.substring(0, forged.indexOf('-'))), 1700000000000L);
    }

    @Test
    void anExtensionIsRefusedOnceTheReaperHasTakenTheEntryOver() {
        StreamQueue q = orders(100, 3, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> q.reap().expiredReturned() == 1);

        assertThat(q.extend(List.of(d.lease()))).containsExactly(Settled.REFUSED);
        assertThat(q.claim(1).get(0).deliveryCount()).isEqualTo(2);
    }

    @Test
    void aDeadLetterThatCannotBeWrittenLeavesTheEntryPending() {
        StreamQueue q = streamQueue("orders", settings(30_000, 0, 1000),
                new StreamOptions(null, "not_a_stream", "g", "0", "c1", 0, true));
        raw.set("not_a_stream", "oops");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> q.nack(List.of(new Failure(d.lease(), "boom"))))
                .isInstanceOf(QueueException.class).hasMessageContaining("WRONGTYPE");

        assertThat(raw.xpending(STREAM, "g").getCount()).isEqualTo(1);
        assertThat(raw.xlen(STREAM)).isEqualTo(1);
    }

    @Test
    void anExtensionOfAnEntryTrimmedAwayIsRefused() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));
        raw.xtrim(STREAM, 0);

        assertThat(q.extend(List.of(d.lease()))).containsExactly(Settled.REFUSED);
    }

    @Test
    void aDeadLetterOfAnEntryTrimmedAwayIsNotRedrivenAsAnEmptyEntry() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        Delivery d = enqueueAndClaim(q, message("m1", "x"));
        raw.xtrim(STREAM, 0);
        q.nack(List.of(new Failure(d.lease(), "boom")));
        assertThat(raw.xlen(DEAD)).isEqualTo(1);

        assertThat(q.redrive(10)).isZero();

        assertThat(raw.xlen(STREAM)).isZero();
        assertThat(raw.xlen(DEAD)).isEqualTo(1);
    }

    @Test
    void redriveGoesOnPastADeadLetterWhoseContentIsAnEmptyObject() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        q.claim(1);
        raw.xadd(DEAD, Map.of("origin_id", "1-1", "content", "{}", "failure", "x", "deliveries", "4"));
        raw.xadd(DEAD, Map.of("origin_id", "1-2", "content", "{\"order_id\":7,\"tags\":[\"a\"]}", "failure", "x",
                "deliveries", "4"));

        assertThat(q.redrive(10)).isEqualTo(2);

        assertThat(q.claim(10)).extracting(Delivery::fields).containsExactly(Map.of("content", "{}"),
                Map.of("order_id", "7", "tags", "[\"a\"]"));
    }

    @Test
    void redriveStopsAtTheDeadLettersThereWereWhenItBegan() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        assertThat(enqueueAndFail(q, ids("m", 2_500))).containsOnly(Settled.DEAD_LETTERED);

        long moved = whileDeadLetteringAgain("orders", true, () -> q.redrive(Long.MAX_VALUE));

        assertThat(moved).isEqualTo(2_500);
    }

    @Test
    void purgeGoesOnPastABatchOfDeadLettersBeingProcessed() {
        StreamQueue q = orders(30_000, 0, 1000, "c1");
        assertThat(enqueueAndFail(q, ids("m", 1_005))).containsOnly(Settled.DEAD_LETTERED);
        assertThat(q.deadLetters().claim(1_000)).hasSize(1_000);

        assertThat(q.purge()).isEqualTo(5);

        assertThat(raw.xlen(DEAD)).isEqualTo(1_000);
    }

    @Test
    void statsKnowTheLagOfTheOnlyGroupAfterDeletionsWithoutCountingEntries() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.claim(1);
        List<String> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        raw.xrange(STREAM, io.lettuce.core.Range.create("-", "+")).forEach(e -> entries.add(e.getId()));
        raw.xdel(STREAM, entries.get(3), entries.get(7));
        q.claim(2);
        long xrangeCalls = CommandStats.of(raw, "xrange", "calls");

        assertThat(q.stats()).extracting(QueueStats::ready, QueueStats::inflight).containsExactly(6L, 2L);
        // one XRANGE of one entry, the first unread one, for oldestReadyAge; counting would be another
        assertThat(CommandStats.of(raw, "xrange", "calls")).isEqualTo(xrangeCalls + 1);
    }

    @Test
    void anAckAndAnExtensionOfABatchCheckEveryTokenWithOneReadOfThePendingEntriesAndSettleWithOneCommandPerStep() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        for (int i = 0; i < 20; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        List<Delivery> claimed = q.claim(20);
        List<Lease> leases = new java.util.ArrayList<>(claimed.stream().map(Delivery::lease).toList());
        leases.add(new Lease("m0", leases.get(0).ref(), "7"));
        long xpending = CommandStats.of(raw, "xpending", "calls");
        long xclaim = CommandStats.of(raw, "xclaim", "calls");

        List<Settled> extended = q.extend(leases);

        assertThat(extended.subList(0, 20)).containsOnly(Settled.EXTENDED);
        assertThat(extended.get(20)).as("a stale token").isEqualTo(Settled.REFUSED);
        assertThat(CommandStats.of(raw, "xpending", "calls") - xpending).isEqualTo(2);
        assertThat(CommandStats.of(raw, "xclaim", "calls") - xclaim).isEqualTo(1);
        long xack = CommandStats.of(raw, "xack", "calls");
        long xdel = CommandStats.of(raw, "xdel", "calls");
        xpending = CommandStats.of(raw, "xpending", "calls");

        List<Settled> acked = q.ack(leases);

        assertThat(acked.subList(0, 20)).containsOnly(Settled.ACKED);
        assertThat(acked.get(20)).isEqualTo(Settled.REFUSED);
        assertThat(CommandStats.of(raw, "xpending", "calls") - xpending).isEqualTo(2);
        assertThat(CommandStats.of(raw, "xack", "calls") - xack).isEqualTo(1);
        assertThat(CommandStats.of(raw, "xdel", "calls") - xdel).isEqualTo(1);
        assertThat(raw.xlen(STREAM)).isZero();
    }

    @Test
    void dueRetriesAreReclaimedWithOneXclaimAndTheirCountsReadWithTwoCommands() {
        StreamQueue q = orders(30_000, 3, 0, "c1");
        enqueueAndFail(q, ids("m", 10));
        long xclaim = CommandStats.of(raw, "xclaim", "calls");
        long xpending = CommandStats.of(raw, "xpending", "calls");

        List<Delivery> again = q.claim(10);

        assertThat(again).hasSize(10).extracting(Delivery::deliveryCount).containsOnly(2);
        assertThat(CommandStats.of(raw, "xclaim", "calls") - xclaim).isEqualTo(1);
        assertThat(CommandStats.of(raw, "xpending", "calls") - xpending).isEqualTo(2);
        assertThat(q.ack(again.stream().map(Delivery::lease).toList())).containsOnly(Settled.ACKED);
    }

    /** Claims every ready message and nacks it (the queue has no retries left: each is dead-lettered). */
    @Test
    void anAckDoesNotReadTheEntry() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        q.enqueue(message("m1", "a large body, not to be copied"));
        Delivery d = q.claim(1).get(0);
        long xrangeCalls = CommandStats.of(raw, "xrange", "calls");

        assertThat(q.ack(List.of(d.lease()))).containsExactly(Settled.ACKED);

        assertThat(CommandStats.of(raw, "xrange", "calls")).isEqualTo(xrangeCalls);
        assertThat(raw.zscore("rr:{orders}:acked", "m1")).isNotNull();
    }

    @Test
    void anIdleReapWritesNothing() {
        assertAnIdleReapWritesNothing(orders(30_000, 3, 1000, "c1"));
    }

    @Test
    void aBatchIsOneScriptCallWithOneResultPerMessageInOrder() {
        StreamQueue q = orders(30_000, 3, 1000, "c1");
        assertABatchIsOneScriptCallWithOneResultPerMessage(q);
        assertThat(q.stats()).extracting(QueueStats::ready, QueueStats::inflight, QueueStats::delayed, QueueStats::dead,
                QueueStats::oldestPendingAge).containsExactly(3L, 0L, 1L, 0L, 0L);
        assertThat(q.claim(10)).extracting(d -> new String(d.body())).containsExactly("a", "x", "w");
    }

    /** A blocking read cannot check the pause: what it takes once the pause has landed goes back unrun. */
    @Test
    void aReadWaitingWhenThePauseLandsGivesItsEntryBackUnrun() {
        StreamQueue queue = orders(60_000, 3, 100, "c1");
        try (Claimer claimer = queue.newClaimer(new Claimant("consumer#0", Duration.ofSeconds(2)))) {
            CompletableFuture<List<Delivery>> claimed = CompletableFuture.supplyAsync(
                    () -> claimer.claim(10, Duration.ofSeconds(60)));
            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn("xreadgroup"));

            queue.pause(Duration.ZERO);
            queue.enqueue(message("m1", "arrives while paused"));

            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn("xread"));
            assertThat(claimed).isNotDone();
            assertThat(counts(queue)).as("given back: ready again, not in flight")
                    .isEqualTo(new QueueStats(1, 0, 0, 0));

            queue.resume();

            assertThat(claimed).succeedsWithin(Duration.ofSeconds(20)).satisfies(got -> assertThat(got)
                    .singleElement().satisfies(d -> {
                        assertThat(d.messageId()).isEqualTo("m1");
                        assertThat(d.deliveryCount()).as("the given-back read is not counted").isOne();
                    }));
        }
    }

    /**
     * The first delivery's message is claimed again (its second delivery) by {@code again}: the first delivery's lease
     * no longer settles, the second's does.
     */
    private static void assertOnlyTheRedeliverySettles(StreamQueue first, Delivery firstDelivery, StreamQueue again) {
        Delivery second = again.claim(1).get(0);
        assertThat(second.messageId()).isEqualTo(firstDelivery.messageId());
        assertThat(second.deliveryCount()).isEqualTo(2);
        assertThat(first.ack(List.of(firstDelivery.lease()))).containsExactly(Settled.REFUSED);
        assertThat(again.ack(List.of(second.lease()))).containsExactly(Settled.ACKED);
    }

    /**
     * Enqueues the messages into an empty queue, claims them and fails each delivery once, a claim's batch in one
     * call; returns what each nack did.
     */
    private static List<Settled> enqueueAndFail(StreamQueue q, List<String> ids) {
        ids.forEach(id -> q.enqueue(message(id, "x")));
        List<Settled> settled = new ArrayList<>();
        while (settled.size() < ids.size()) {
            List<Delivery> batch = q.claim(Math.min(ReliableQueue.MAX_BATCH, ids.size() - settled.size()));
            assertThat(batch).isNotEmpty();
            settled.addAll(q.nack(batch.stream().map(d -> new Failure(d.lease(), "boom")).toList()));
        }
        return settled;
    }

    private static List<String> ids(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }
}
