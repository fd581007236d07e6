package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue-wide cap on the messages in flight (a stream group's), decided by the claim script: a claim takes at most
 * cap - in flight, whoever claims, expired leases not yet returned counting, and the settlement that frees room wakes
 * a waiting consumer.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class MaxInflightTest extends QueueTestBase {

    private static final Claimant ONE = new Claimant("consumer#0", Duration.ofSeconds(2));
    private static final Claimant OTHER = new Claimant("consumer#1", Duration.ofSeconds(2));

    /** Retries due after a minute: a nacked message does not come back within a test. */
    private ReliableQueue capped(long visibilityMs) {
        return queueOfMode(settings(visibilityMs, 3, 60_000).toBuilder().maxInflight(3).build());
    }

    private String cappedKey() {
        return key("orders", !streamMode() ? "capped" : "group:g:capped");
    }

    @Test
    void claimsTakeAtMostTheCapLessWhatIsInFlightWhoeverClaims() {
        ReliableQueue queue = capped(60_000);
        queue.enqueue(messages(10));

        List<Delivery> first = queue.claim(ONE, 2);
        assertThat(first).hasSize(2);
        assertThat(queue.claim(OTHER, 10)).as("3 - 2 in flight").hasSize(1);
        assertThat(queue.claim(ONE, 10)).as("at the cap").isEmpty();
        assertThat(raw.exists(cappedKey())).isOne();
        assertThat(queue.stats().capped()).isTrue();

        assertThat(queue.ack(List.of(first.get(0).lease()))).containsExactly(Settled.ACKED);

        assertThat(raw.exists(cappedKey())).as("cleared by the ack that freed room").isZero();
        assertThat(queue.stats().capped()).isFalse();
        assertThat(queue.claim(OTHER, 10)).hasSize(1);
        assertThat(counts(queue)).isEqualTo(new QueueStats(6, 3, 0, 0));
    }

    @Test
    void anExpiredLeaseTheReaperHasNotReturnedStillCounts() {
        ReliableQueue queue = capped(200);
        queue.enqueue(messages(5));
        assertThat(queue.claim(ONE, 10)).hasSize(3);
        long claimedAt = now();
        await().atMost(Duration.ofSeconds(10)).until(() -> now() > claimedAt + 200);

        assertThat(queue.claim(OTHER, 10)).as("expired but not returned: still in flight").isEmpty();

        assertThat(queue.reap().expiredReturned()).isEqualTo(3);
        // a crashed batch's messages come back to be claimed alone: one claim each
        List<Delivery> claimed = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            claimed.addAll(queue.claim(OTHER, 10));
        }
        assertThat(claimed).as("up to the cap again").hasSize(3);
    }

    @Test
    void aConsumerWaitingAtTheCapIsWokenByTheSettlementThatFreesRoom() {
        ReliableQueue queue = capped(60_000);
        queue.enqueue(messages(4));
        List<Delivery> held = queue.claim(ONE, 3);
        try (Claimer claimer = queue.newClaimer(OTHER)) {
            // its first claims, at the cap, take nothing (one more finds the wake-up token the sends left)
            CompletableFuture<List<Delivery>> waiting = claimUntilSome(claimer, Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn(streamMode() ? "xread" : "blpop"));
            assertThat(waiting).isNotDone();

            queue.nack(List.of(new Failure(held.get(0).lease(), "boom")));

            assertThat(waiting).succeedsWithin(Duration.ofSeconds(20)).satisfies(got -> assertThat(got)
                    .extracting(Delivery::messageId).containsExactly("m3"));
        }
    }

    /** Messages m0..m(n-1). */
    private static List<NewMessage> messages(int n) {
        return ids(0, n).stream().map(id -> message(id, id)).toList();
    }
}
