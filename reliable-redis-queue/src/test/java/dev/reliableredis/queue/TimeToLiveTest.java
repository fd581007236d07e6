package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.reliableredis.queue.QueueSettings.ExpiredMessages;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A message's time to live, counted from the enqueue on the Redis clock and checked by the claim, in both modes: an
 * expired message is never delivered but dead-lettered with a failure starting with 'expired', or dropped; an ack, a
 * redrive and a purge clear its expiry (in stream mode it is a field of the entry, which a dead letter does not
 * copy).
 */
class TimeToLiveTest extends QueueTestBase {

    private ReliableQueue queue(boolean dropExpired) {
        return queue("orders", settings(60_000, 3, 100).toBuilder()
                .expiredMessages(dropExpired ? ExpiredMessages.DROP : ExpiredMessages.DEAD_LETTER).build());
    }

    private static NewMessage living(String id, long timeToLiveMs) {
        return new NewMessage(id, id.getBytes(), null, 0, null, timeToLiveMs);
    }

    /** Waits until the Redis clock is past every time to live of 1 ms given so far. */
    private void oneMillisecondPasses() {
        long enqueuedBy = now();
        await().atMost(Duration.ofSeconds(10)).until(() -> now() > enqueuedBy + 1);
    }

    @Test
    void anExpiredMessageIsDeadLetteredUndeliveredWhileTheOthersAreDelivered() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("short", 1), message("plain", "no time to live"), living("long", 3_600_000)));
        oneMillisecondPasses();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("plain", "long");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 2, 0, 1));
        assertThat(raw.hget(key("orders", "failure"), "short")).startsWith("expired: its time to live ended at ");
        assertThat(raw.hexists(key("orders", "leases"), "short")).as("never delivered").isFalse();
        assertThat(raw.hkeys(key("orders", "extras"))).containsExactly("long");
    }

    @Test
    void withDropAnExpiredMessageIsGoneWithEverythingKeptAboutIt() {
        ReliableQueue queue = queue(true);
        queue.enqueue(List.of(living("short", 1), message("plain", "no time to live")));
        oneMillisecondPasses();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("plain");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(raw.hexists(key("orders", "messages"), "short")).isFalse();
        assertThat(raw.exists(key("orders", "extras"))).isZero();
    }

    @Test
    void aRetryOrADelayedMessageWhoseTimeHasPassedIsNotDeliveredAgain() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("retried", 1000), new NewMessage("delayed", new byte[0], null, 100, null, 1)));
        Delivery first = queue.claim(THREAD, 10).get(0);
        assertThat(queue.nack(List.of(new Failure(first.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);
        long ends = Long.parseLong(raw.hget(key("orders", "extras"), "retried").split("\\|")[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> now() > ends);

        queue.reap();
        assertThat(queue.claim(THREAD, 10)).isEmpty();

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 2));
        assertThat(raw.hget(key("orders", "leases"), "retried")).as("its one delivery").startsWith("1|");
    }

    @Test
    void anAckClearsTheExpiryAndARedrivenMessageLivesUntilConsumed() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("acked", 3_600_000), living("redriven", 1)));
        Delivery acked = queue.claim(THREAD, 1).get(0);
        assertThat(queue.ack(List.of(acked.lease()))).containsExactly(Settled.ACKED);
        oneMillisecondPasses();
        assertThat(queue.claim(THREAD, 10)).as("expired").isEmpty();

        assertThat(queue.redrive(10)).isOne();

        assertThat(raw.exists(key("orders", "extras"))).as("both cleared").isZero();
        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("redriven");
    }

    @Test
    void aPurgeClearsTheExpiries() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("ready", 3_600_000), new NewMessage("delayed", new byte[0], null, 60_000, null,
                3_600_000)));

        queue.purge();

        assertThat(raw.exists(key("orders", "extras"))).isZero();
    }

    @Test
    void aNegativeTimeToLiveIsRefusedNamingIt() {
        assertThatThrownBy(() -> living("m1", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 ms");
    }

    @Test
    void aTimeToLiveOrADelayOfMoreThanFourteenDaysIsRefusedNamingIt() {
        long fourteenDays = Duration.ofDays(14).toMillis();
        assertThatThrownBy(() -> living("m1", fourteenDays + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Time to live").hasMessageContaining((fourteenDays + 1) + " ms");
        assertThatThrownBy(() -> new NewMessage("m1", new byte[0], Map.of(), Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Delay").hasMessageContaining(Long.MAX_VALUE + " ms");

        assertThat(new NewMessage("m1", new byte[0], Map.of(), fourteenDays, null, fourteenDays).delayMs())
                .isEqualTo(fourteenDays);
    }

    private StreamQueue streamQueue(boolean dropExpired) {
        return streamQueue("orders", settings(60_000, 3, 100).toBuilder()
                        .expiredMessages(dropExpired ? ExpiredMessages.DROP : ExpiredMessages.DEAD_LETTER).build(),
                group("g", "c1"));
    }

    /** The fields of the dead-letter stream's entries, oldest first. */
    private List<Map<String, String>> deadLetters() {
        return raw.xrange(key("orders", "dead"), Range.create("-", "+")).stream().map(StreamMessage::getBody)
                .toList();
    }

    @Test
    void inStreamModeAnExpiredEntryIsDeadLetteredUndeliveredWhileTheOthersAreDelivered() {
        StreamQueue queue = streamQueue(false);
        queue.enqueue(List.of(living("short", 1), message("plain", "no time to live"), living("long", 3_600_000)));
        oneMillisecondPasses();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("plain", "long");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 2, 0, 1));
        Map<String, String> letter = deadLetters().get(0);
        assertThat(letter).containsEntry("id", "short").containsEntry("deliveries", "0")
                .doesNotContainKey("expires");
        assertThat(letter.get("failure")).startsWith("expired: its time to live ended at ");
        assertThat(raw.xlen(key("orders", "stream"))).as("deleted like an acked entry").isEqualTo(2);
    }

    @Test
    void inStreamModeWithDropAnExpiredEntryIsAckedAndDeletedAndItsIdForgotten() {
        StreamQueue queue = streamQueue(true);
        queue.enqueue(List.of(living("short", 1), message("plain", "no time to live")));
        oneMillisecondPasses();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("plain");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(raw.xlen(key("orders", "stream"))).isOne();
        assertThat(queue.enqueue(List.of(message("short", "sent again")))).as("its id is unknown").containsExactly(true);
    }

    @Test
    void inStreamModeARetryOrADelayedMessageWhoseTimeHasPassedIsNotDeliveredAgain() {
        StreamQueue queue = streamQueue(false);
        queue.enqueue(List.of(living("retried", 1000), new NewMessage("delayed", new byte[0], null, 100, null, 1)));
        Delivery first = queue.claim(THREAD, 10).get(0);
        assertThat(queue.nack(List.of(new Failure(first.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);
        long enqueuedBy = now();
        await().atMost(Duration.ofSeconds(10)).until(() -> now() > enqueuedBy + 1000);

        queue.reap();
        assertThat(queue.claim(THREAD, 10)).isEmpty();

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 2));
        assertThat(deadLetters()).extracting(letter -> letter.get("id") + " " + letter.get("deliveries"))
                .containsExactlyInAnyOrder("retried 1", "delayed 0");
    }

    @Test
    void inStreamModeARedrivenMessageLivesUntilConsumed() {
        StreamQueue queue = streamQueue(false);
        queue.enqueue(List.of(living("redriven", 1)));
        oneMillisecondPasses();
        assertThat(queue.claim(THREAD, 10)).as("expired").isEmpty();

        assertThat(queue.redrive(10)).isOne();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("redriven");
    }

    @Test
    void inStreamModeAnEntryWithATimeToLiveThatABlockingReadTookIsJudgedByTheClaim() throws Exception {
        StreamQueue queue = streamQueue(false);
        try (Claimer claimer = queue.newClaimer(THREAD)) {
            CompletableFuture<List<Delivery>> claimed = claimUntilSome(claimer, Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn("xreadgroup"));
            // an entry as enqueue writes it, whose time to live ended before the read took it
            raw.xadd(key("orders", "stream"), "body", "late", "id", "expired", "expires", Long.toString(now() - 1));
            await().atMost(Duration.ofSeconds(10)).until(() -> counts(queue).dead() == 1);
            assertThat(claimed).as("nothing delivered").isNotDone();

            queue.enqueue(living("living", 3_600_000));

            assertThat(claimed).succeedsWithin(Duration.ofSeconds(20)).satisfies(got -> assertThat(got)
                    .extracting(d -> d.messageId() + " " + d.deliveryCount()).containsExactly("living 1"));
        }
        assertThat(deadLetters()).extracting(letter -> letter.get("id") + " " + letter.get("deliveries"))
                .containsExactly("expired 0");
    }

    @Test
    void inStreamModeAMalformedDelayIsRefusedBeforeAnythingIsWritten() {
        byte[][] keys = java.util.stream.Stream.of("stream", "dead", "ids", "acked", "delayed", "delayed-msg")
                .map(part -> key("orders", part).getBytes()).toArray(byte[][]::new);
        byte[][] args = java.util.stream.Stream.of("0", "", "m1", "body", "", "0|1000", "m2", "body", "", "soon", "")
                .map(String::getBytes).toArray(byte[][]::new);

        assertThat(LuaScript.load("stream/enqueue").run(gateway.asyncCommands(), ScriptOutputType.MULTI, keys, args)
                .toCompletableFuture()).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .withMessageContaining("the delay of message m2 is 'soon'");
        assertThat(raw.exists(key("orders", "stream"), key("orders", "ids"))).isZero();
    }
}
