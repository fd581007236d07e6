package dev.reliableredis.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.reliableredis.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** browse, redrive of one message and the two ages of stats, the same in both modes, against a real redis-server. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BrowseTest extends QueueTestBase {

    private ReliableQueue orders(long visibilityMs, int maxRetries, long retryDelayMs) {
        return queueOfMode(settings(visibilityMs, maxRetries, retryDelayMs));
    }

    /** Waits until the Redis clock is at least {@code ms} past {@code since}. */
    private void awaitRedisTime(long since, long ms) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> now() - since >= ms);
    }

    /** Every key in Redis and its DUMP: equal snapshots mean nothing was written. */
    private Map<String, String> dumpAll() {
        Map<String, String> dumps = new TreeMap<>();
        for (String key : RedisProcess.keys(raw, "*")) {
            dumps.put(key, Base64.getEncoder().encodeToString(raw.dump(key)));
        }
        return dumps;
    }

    /** Claims every ready message and nacks each on its own, in order: with no retries left, each is dead. */
    private static void deadLetterAll(ReliableQueue q) {
        for (Delivery d : q.claim(100)) {
            q.nack(List.of(new Failure(d.lease(), "boom " + d.messageId())));
        }
    }

    /** Dead-letters the two messages and claims the first from the dead letters, to consume it. */
    private static void deadLettersTheFirstBeingConsumed(ReliableQueue q, String first, String second) {
        q.enqueue(List.of(message(first, "x"), message(second, "x")));
        deadLetterAll(q);
        q.deadLetters().claim(1);
    }

    @Test
    void readyMessagesComeInClaimOrderWithBodyHeadersAndAge() {
        ReliableQueue q = orders(30_000, 3, 1000);
        long before = now();
        q.enqueue(new NewMessage("m1", "one".getBytes(), Map.of("n", 7L), 0));
        long enqueued = now();
        q.enqueue(List.of(message("m2", "two"), message("m3", "three")));
        awaitRedisTime(enqueued, 100);

        List<BrowsedMessage> ready = q.browse(QueueSection.READY, 2);
        long elapsed = now() - before;

        assertThat(ready).extracting(BrowsedMessage::messageId).containsExactly("m1", "m2");
        BrowsedMessage first = ready.get(0);
        assertThat(first.section()).isEqualTo(QueueSection.READY);
        assertThat(new String(first.body())).isEqualTo("one");
        assertThat(first.headers()).isEqualTo(Map.of("n", 7L));
        assertThat(first.age()).isBetween(100L, elapsed);
        assertThat(first).extracting(BrowsedMessage::deliveries, BrowsedMessage::leaseAge, BrowsedMessage::dueIn,
                BrowsedMessage::failure, BrowsedMessage::owner, BrowsedMessage::fields)
                .containsExactly(0, -1L, -1L, null, null, null);
        assertThat(ready.get(1).headers()).isEmpty();
        assertThat(q.browse(QueueSection.READY, 1000)).extracting(BrowsedMessage::messageId)
                .containsExactly("m1", "m2", "m3");
    }

    @Test
    void inFlightMessagesComeLongestHeldLeaseFirstWithLeaseAgeAndOwner() {
        ReliableQueue q = orders(30_000, 3, 1000);
        q.enqueue(List.of(message("m1", "a"), message("m2", "b"), message("m3", "c")));
        long beforeClaim = now();
        List<Delivery> claimed = q.claim(2);
        long claimedAt = now();
        awaitRedisTime(claimedAt, 150);
        long beforeExtend = now();
        // m1's lease is renewed: m2's is the longest held now
        assertThat(q.extend(List.of(claimed.get(0).lease()))).containsExactly(Settled.EXTENDED);

        List<BrowsedMessage> inflight = q.browse(QueueSection.INFLIGHT, 10);
        long after = now();

        assertThat(inflight).extracting(BrowsedMessage::messageId).containsExactly("m2", "m1");
        BrowsedMessage held = inflight.get(0);
        assertThat(held.section()).isEqualTo(QueueSection.INFLIGHT);
        assertThat(new String(held.body())).isEqualTo("b");
        assertThat(held.leaseAge()).isBetween(150L, after - beforeClaim);
        assertThat(inflight.get(1).leaseAge()).isBetween(0L, after - beforeExtend);
        assertThat(held).extracting(BrowsedMessage::deliveries, BrowsedMessage::dueIn, BrowsedMessage::failure,
                BrowsedMessage::owner).containsExactly(1, -1L, null, streamMode() ? "c1" : null);
        assertThat(q.browse(QueueSection.INFLIGHT, 1)).extracting(BrowsedMessage::messageId).containsExactly("m2");
    }

    @Test
    void aDeadLetterBeingConsumedIsInFlightWithItsFailureAndNotDead() {
        ReliableQueue q = orders(30_000, 0, 1000);
        q.enqueue(List.of(message("d1", "x"), message("m1", "y")));
        q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "boom d1")));
        q.claim(1);
        long claimedAt = now();
        awaitRedisTime(claimedAt, 20);
        Delivery letter = q.deadLetters().claim(1).get(0);

        List<BrowsedMessage> inflight = q.browse(QueueSection.INFLIGHT, 10);

        assertThat(letter.messageId()).isEqualTo("d1");
        assertThat(inflight).extracting(BrowsedMessage::messageId).containsExactly("m1", "d1");
        assertThat(inflight.get(1)).extracting(BrowsedMessage::failure, BrowsedMessage::deliveries)
                .containsExactly("boom d1", 1);
        assertThat(inflight.get(0).failure()).isNull();
        assertThat(q.browse(QueueSection.DEAD, 10)).isEmpty();
        assertThat(q.deadLetters().browse(QueueSection.INFLIGHT, 10)).extracting(BrowsedMessage::messageId)
                .containsExactly("m1", "d1");
    }

    @Test
    void delayedMessagesAndRetriesComeByDueTime() {
        ReliableQueue q = orders(30_000, 3, 20_000);
        long before = now();
        q.enqueue(new NewMessage("later", "l".getBytes(), Map.of("h", 1), 60_000));
        q.enqueue(new NewMessage("due", "d".getBytes(), null, 1));
        q.enqueue(message("m1", "a"));
        q.nack(List.of(new Failure(q.claim(1).get(0).lease(), "java.lang.IllegalStateException: boom")));
        // no reaper runs here: a due message stays delayed
        awaitRedisTime(before, 10);

        List<BrowsedMessage> delayed = q.browse(QueueSection.DELAYED, 10);
        long elapsed = now() - before;

        assertThat(delayed).extracting(BrowsedMessage::messageId).containsExactly("due", "m1", "later");
        assertThat(delayed.get(0).dueIn()).isZero();
        BrowsedMessage retry = delayed.get(1);
        assertThat(retry.dueIn()).isBetween(20_000 - elapsed, 20_000L);
        assertThat(retry).extracting(BrowsedMessage::deliveries, BrowsedMessage::leaseAge, BrowsedMessage::owner)
                .containsExactly(1, -1L, null);
        // list mode keeps the failure of a retry; a stream keeps it only in a dead letter
        assertThat(retry.failure()).isEqualTo(streamMode() ? null : "java.lang.IllegalStateException: boom");
        assertThat(new String(retry.body())).isEqualTo("a");
        BrowsedMessage later = delayed.get(2);
        assertThat(later.dueIn()).isBetween(60_000 - elapsed, 60_000L);
        assertThat(later).extracting(BrowsedMessage::deliveries, BrowsedMessage::failure, BrowsedMessage::headers)
                .containsExactly(0, null, Map.of("h", 1));
        assertThat(new String(later.body())).isEqualTo("l");
        assertThat(later.age()).isBetween(0L, elapsed);
        assertThat(q.browse(QueueSection.DELAYED, 2)).extracting(BrowsedMessage::messageId)
                .containsExactly("due", "m1");
    }

    @Test
    void deadLettersComeInTheOrderTheyDiedWithTheirFailure() {
        ReliableQueue q = orders(30_000, 0, 60_000);
        q.enqueue(List.of(message("d0", "x0"), message("d1", "x1"), message("d2", "x2")));
        deadLetterAll(q);

        List<BrowsedMessage> dead = q.browse(QueueSection.DEAD, 2);

        assertThat(dead).extracting(BrowsedMessage::messageId).containsExactly("d0", "d1");
        assertThat(dead.get(0)).extracting(BrowsedMessage::section, BrowsedMessage::failure,
                BrowsedMessage::deliveries, BrowsedMessage::leaseAge, BrowsedMessage::dueIn, BrowsedMessage::owner)
                .containsExactly(QueueSection.DEAD, "boom d0", 1, -1L, -1L, null);
        assertThat(new String(dead.get(0).body())).isEqualTo("x0");

        // a dead letter whose consumption failed waits for its retry among the dead letters
        Delivery letter = q.deadLetters().claim(1).get(0);
        q.deadLetters().nack(List.of(new Failure(letter.lease(), "still broken")));
        assertThat(q.browse(QueueSection.DEAD, 10)).extracting(BrowsedMessage::messageId)
                .containsExactlyInAnyOrder("d0", "d1", "d2");
        assertThat(q.browse(QueueSection.INFLIGHT, 10)).isEmpty();
    }

    @Test
    void aFailureIsKeptUpToOneKilobyteOfUtf8CutBetweenCharacters() {
        ReliableQueue q = orders(30_000, 0, 60_000);
        q.enqueue(message("d0", "x0"));
        Delivery d = q.claim(1).get(0);
        String reason = "x" + "é".repeat(5_000);

        q.nack(List.of(new Failure(d.lease(), reason)));

        String kept = q.browse(QueueSection.DEAD, 1).get(0).failure();
        assertThat(kept.getBytes(StandardCharsets.UTF_8)).hasSize(1024);
        assertThat(kept).startsWith("xé").endsWith("é…");
    }

    @Test
    void aRequestsReplyAddressIsNotShownButStillDelivered() {
        ReliableQueue q = orders(30_000, 3, 1000);
        String replyTo = new ReplyTo("inbox", "c1", 1000).header();
        q.enqueue(new NewMessage("r1", "question".getBytes(), Map.of("n", 7L, ReplyTo.HEADER, replyTo), 0));

        assertThat(q.browse(QueueSection.READY, 10)).singleElement()
                .satisfies(m -> assertThat(m.headers()).isEqualTo(Map.of("n", 7L)));
        assertThat(q.claim(1).get(0).headers()).containsEntry(ReplyTo.HEADER, replyTo);
    }

    @Test
    void unreadableHeadersComeBackAsNone() {
        ReliableQueue q = orders(30_000, 3, 1000);
        if (streamMode()) {
            raw.xadd(key("orders", "stream"), Map.of("body", "body", "id", "bad", "headers", "{bad]"));
        } else {
            raw.hset(key("orders", "messages"), "bad", now() + "|5|{bad]body");
            raw.rpush(key("orders", "ready"), "bad");
        }

        BrowsedMessage bad = q.browse(QueueSection.READY, 1).get(0);

        assertThat(bad.messageId()).isEqualTo("bad");
        assertThat(bad.headers()).isEmpty();
        assertThat(new String(bad.body())).isEqualTo("body");
    }

    @Test
    void aMalformedMessageIsShownAsMalformedAmongTheOthersAndDeadSoOnceClaimed() {
        ReliableQueue q = orders(30_000, 3, 1000);
        q.enqueue(message("first", "a"));
        String record = "1700000000000|2147483648|x";
        if (streamMode()) {
            raw.xadd(key("orders", "stream"), "body", "x", "id", "bad", "enqueued", "1700000000000", "expires", "soon");
        } else {
            raw.hset(key("orders", "messages"), "bad", record);
            raw.rpush(key("orders", "ready"), "bad");
        }
        q.enqueue(message("last", "b"));
        String failure = streamMode() ? "malformed record: expires 'soon' is not a number"
                : "malformed record: headers length '2147483648' is more than the 1 bytes after it";

        List<BrowsedMessage> ready = q.browse(QueueSection.READY, 10);

        assertThat(ready).extracting(BrowsedMessage::messageId).containsExactly("first", "bad", "last");
        assertThat(ready).extracting(BrowsedMessage::failure).containsExactly(null, failure, null);
        BrowsedMessage bad = ready.get(1);
        // list mode: no part of the record can be trusted, so it shows whole, of no known age
        assertThat(new String(bad.body())).isEqualTo(streamMode() ? "x" : record);
        if (streamMode()) {
            assertThat(bad.age()).isCloseTo(now() - 1700000000000L, within(10_000L));
        } else {
            assertThat(bad.age()).isEqualTo(-1);
        }
        assertThat(q.claim(10)).extracting(Delivery::messageId).containsExactly("first", "last");
        assertThat(q.browse(QueueSection.DEAD, 10)).singleElement().satisfies(dead -> {
            assertThat(dead.messageId()).isEqualTo("bad");
            assertThat(dead.failure()).isEqualTo(failure);
        });
    }

    @Test
    void browsingChangesNothing() {
        ReliableQueue q = orders(30_000, 0, 60_000);
        deadLettersTheFirstBeingConsumed(q, "d1", "d2");
        ReliableQueue retrying = orders(30_000, 3, 60_000);
        retrying.enqueue(message("retry", "x"));
        retrying.nack(List.of(new Failure(retrying.claim(1).get(0).lease(), "boom")));
        q.enqueue(message("held", "x"));
        q.claim(1);
        q.enqueue(message("ready", "x"));
        q.enqueue(new NewMessage("later", "x".getBytes(), null, 60_000));
        Map<String, String> before = dumpAll();

        for (QueueSection section : QueueSection.values()) {
            assertThat(q.browse(section, 1000)).as(section.name()).extracting(BrowsedMessage::messageId)
                    .containsExactlyInAnyOrderElementsOf(switch (section) {
                        case READY -> List.of("ready");
                        case INFLIGHT -> List.of("held", "d1");
                        case DELAYED -> List.of("retry", "later");
                        case DEAD -> List.of("d2");
                    });
        }

        assertThat(dumpAll()).isEqualTo(before);
        Delivery next = q.claim(1).get(0);
        assertThat(next.messageId()).isEqualTo("ready");
        assertThat(next.deliveryCount()).isEqualTo(1);
    }

    @Test
    void aBrowseReadsOneToAThousandMessages() {
        ReliableQueue q = orders(30_000, 3, 1000);

        assertThat(q.browse(QueueSection.READY, 1000)).isEmpty();
        for (int limit : new int[] {0, 1001}) {
            assertThatThrownBy(() -> q.browse(QueueSection.READY, limit)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(" " + limit + " ").hasMessageContaining("'orders'");
        }
    }

    @Test
    void redriveOfOneMessageMovesExactlyThatDeadLetter() {
        ReliableQueue q = orders(30_000, 0, 1000);
        q.enqueue(List.of(message("d0", "x0"), message("d1", "x1"), message("d2", "x2")));
        List<Delivery> claimed = q.claim(3);
        for (Delivery d : claimed) {
            q.nack(List.of(new Failure(d.lease(), "boom " + d.messageId())));
        }
        q.enqueue(message("r1", "ready"));
        raw.del(key("orders", "wake"));
        long enqueuedAt = claimed.get(1).enqueuedAt();
        awaitRedisTime(enqueuedAt, 50);

        assertThat(q.redrive("d1")).isTrue();

        assertThat(q.browse(QueueSection.DEAD, 10)).extracting(BrowsedMessage::messageId).containsExactly("d0", "d2");
        long beforeBrowse = now();
        BrowsedMessage redriven = q.browse(QueueSection.READY, 10).get(1);
        assertThat(redriven).extracting(BrowsedMessage::messageId, BrowsedMessage::deliveries,
                BrowsedMessage::failure).containsExactly("d1", 0, null);
        assertThat(redriven.age()).as("the age from the first enqueue").isBetween(beforeBrowse - enqueuedAt,
                now() - enqueuedAt);
        if (!streamMode()) {
            assertThat(raw.hexists(key("orders", "failure"), "d1")).isFalse();
            assertThat(raw.llen(key("orders", "wake"))).as("a wake-up token").isEqualTo(1);
        }
        List<Delivery> again = q.claim(2);
        assertThat(again).extracting(Delivery::messageId).containsExactly("r1", "d1");
        assertThat(again.get(1).deliveryCount()).isEqualTo(1);
        assertThat(again.get(1).enqueuedAt()).isEqualTo(claimed.get(1).enqueuedAt());
        assertThat(again.get(1).failure()).isNull();
    }

    @Test
    void redriveOfOneMessageChangesNothingWhenItIsNoDeadLetter() {
        ReliableQueue q = orders(30_000, 0, 1000);
        deadLettersTheFirstBeingConsumed(q, "d0", "d1");
        q.enqueue(message("r1", "ready"));
        Map<String, String> before = dumpAll();

        assertThat(q.redrive("unknown")).isFalse();
        assertThat(q.redrive("r1")).as("a ready message").isFalse();
        assertThat(q.redrive("d0")).as("a dead letter being consumed").isFalse();

        assertThat(dumpAll()).isEqualTo(before);
        assertThat(q.redrive("d1")).isTrue();
    }

    @Test
    void statsAgeTheHeadOfTheReadyLineAndTheLongestHeldLease() {
        ReliableQueue q = orders(30_000, 3, 60_000);
        assertThat(q.stats().toMap()).containsEntry("oldestReadyAge", 0L).containsEntry("oldestInflightAge", 0L);
        long before = now();
        q.enqueue(message("m1", "a"));
        awaitRedisTime(now(), 300);
        long beforeSecond = now();
        q.enqueue(message("m2", "b"));

        QueueStats waiting = q.stats();
        assertThat(waiting.oldestReadyAge()).isBetween(300L, now() - before);
        assertThat(waiting.oldestInflightAge()).isZero();

        long beforeClaim = now();
        Delivery d = q.claim(1).get(0);
        long claimedAt = now();
        assertThat(q.stats().oldestReadyAge()).as("m2 is at the head").isBetween(0L, now() - beforeSecond);
        awaitRedisTime(claimedAt, 100);
        QueueStats held = q.stats();
        assertThat(held.oldestInflightAge()).isBetween(100L, now() - beforeClaim);
        assertThat(held.toMap()).containsEntry("oldestInflightAge", held.oldestInflightAge())
                .containsEntry("oldestReadyAge", held.oldestReadyAge());

        long beforeExtend = now();
        q.extend(List.of(d.lease()));
        assertThat(q.stats().oldestInflightAge()).as("extended").isBetween(0L, now() - beforeExtend);
        // a retry waits: nothing is in flight
        q.nack(List.of(new Failure(d.lease(), "boom")));
        assertThat(q.stats().oldestInflightAge()).isZero();
    }
}
