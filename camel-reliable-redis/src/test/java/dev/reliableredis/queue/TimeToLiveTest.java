package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A message's time to live, counted from the enqueue on the Redis clock and checked by the claim: an expired message
 * is never delivered but dead-lettered with a failure starting with 'expired', or dropped; an ack, a redrive and a
 * purge clear its expiry.
 */
class TimeToLiveTest extends QueueTestBase {

    private static final Claimant THREAD = new Claimant("consumer#0", Duration.ofSeconds(2));

    private ReliableQueue queue(boolean dropExpired) {
        return queue("orders", settings(60_000, 3, 100).withDropExpired(dropExpired));
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
        assertThat(raw.hkeys(key("orders", "expires"))).containsExactly("long");
    }

    @Test
    void withDropAnExpiredMessageIsGoneWithEverythingKeptAboutIt() {
        ReliableQueue queue = queue(true);
        queue.enqueue(List.of(living("short", 1), message("plain", "no time to live")));
        oneMillisecondPasses();

        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("plain");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(raw.hexists(key("orders", "messages"), "short")).isFalse();
        assertThat(raw.exists(key("orders", "expires"))).isZero();
    }

    @Test
    void aRetryOrADelayedMessageWhoseTimeHasPassedIsNotDeliveredAgain() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("retried", 1000), new NewMessage("delayed", new byte[0], null, 100, null, 1)));
        Delivery first = queue.claim(THREAD, 10).get(0);
        assertThat(queue.nack(List.of(new Failure(first.lease(), "boom")))).containsExactly(Settled.RETRY_SCHEDULED);
        long ends = Long.parseLong(raw.hget(key("orders", "expires"), "retried"));
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

        assertThat(raw.exists(key("orders", "expires"))).as("both cleared").isZero();
        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("redriven");
    }

    @Test
    void aPurgeClearsTheExpiries() {
        ReliableQueue queue = queue(false);
        queue.enqueue(List.of(living("ready", 3_600_000), new NewMessage("delayed", new byte[0], null, 60_000, null,
                3_600_000)));

        queue.purge();

        assertThat(raw.exists(key("orders", "expires"))).isZero();
    }

    @Test
    void aNegativeTimeToLiveIsRefusedAndAStreamModeQueueRefusesOneNamingTheMessage() {
        assertThatThrownBy(() -> living("m1", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 ms");

        ReliableQueue stream = streamQueue("orders", settings(60_000, 3, 100), group("g", "c1"));
        assertThatThrownBy(() -> stream.enqueue(living("m1", 1000))).hasMessageContaining("'m1'")
                .hasMessageContaining("stream-mode queue 'orders'");
        assertThat(stream.stats().ready()).isZero();
    }
}
