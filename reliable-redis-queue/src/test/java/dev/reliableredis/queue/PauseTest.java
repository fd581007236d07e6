package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A queue-wide pause, held in Redis: no claim takes a message while it lasts, whoever claims, while sends, lease
 * extensions and settlements go on; a resume wakes a waiting consumer at once, and a timed pause ends by itself.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream", "sharded"})
class PauseTest extends QueueTestBase {

    /** Far longer than any assertion waits: a consumer that ends its wait before it was woken. */
    private static final Duration LONG_WAIT = Duration.ofSeconds(60);

    private ReliableQueue queue;

    @BeforeEach
    void openQueue() {
        queue = queueOfMode(settings(60_000, 0, 100));
    }

    @Test
    void aPausedQueueClaimsNothingButTakesSendsExtendsAndSettlesUntilResumed() {
        queue.enqueue(message("m1", "one"));
        Delivery held = queue.claim(1).get(0);
        queue.enqueue(message("m2", "two"));

        queue.pause(Duration.ZERO);

        assertThat(queue.stats().paused()).isTrue();
        assertThat(queue.stats().toMap()).containsEntry("paused", 1L);
        assertThat(queue.enqueue(message("m3", "three"))).isTrue();
        assertThat(queue.claim(THREAD, 10)).isEmpty();
        assertThat(queue.extend(List.of(held.lease()))).containsExactly(Settled.EXTENDED);
        assertThat(queue.ack(List.of(held.lease()))).containsExactly(Settled.ACKED);
        assertThat(queue.stats().ready()).isEqualTo(2);

        assertThat(queue.resume()).as("it was paused").isTrue();

        assertThat(queue.stats().paused()).isFalse();
        assertThat(claimExactly(queue, List.of("m2", "m3"))).allSatisfy(d -> assertThat(d.deliveryCount()).isOne());
        assertThat(queue.resume()).as("it was not paused any more").isFalse();
    }

    @Test
    void aPauseOutlivesItsQueueObjectAndTheDeadLettersStillFlow() {
        queue.enqueue(message("m1", "fails"));
        Delivery first = queue.claim(1).get(0);
        queue.nack(List.of(new Failure(first.lease(), "boom")));
        queue.enqueue(message("m2", "waits"));

        queue.pause(Duration.ZERO);
        openQueue();

        assertThat(queue.stats().paused()).isTrue();
        assertThat(queue.claim(THREAD, 10)).isEmpty();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(queue.deadLetters().claim(THREAD, 10)).extracting(Delivery::messageId)
                        .containsExactly("m1"));
    }

    @Test
    void aTimedPauseEndsByItselfOnTheRedisClock() {
        queue.enqueue(message("m1", "later"));

        queue.pause(Duration.ofMillis(500));

        assertThat(queue.claim(THREAD, 10)).isEmpty();
        assertThat(queue.stats().paused()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> !queue.stats().paused());
        assertThat(queue.claim(THREAD, 10)).extracting(Delivery::messageId).containsExactly("m1");
    }

    @Test
    void aConsumerWaitingOnThePauseWakesAtTheResumeNotAtTheEndOfItsWait() {
        queue.enqueue(message("m1", "held"));
        queue.pause(Duration.ZERO);
        try (Claimer claimer = queue.newClaimer(THREAD)) {
            CompletableFuture<List<Delivery>> claimed = claimUntilSome(claimer, LONG_WAIT);
            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn("xread"));
            assertThat(claimed).as("paused: nothing claimed").isNotDone();

            queue.resume();

            assertThat(claimed).succeedsWithin(Duration.ofSeconds(20)).satisfies(got -> assertThat(got)
                    .extracting(Delivery::messageId).containsExactly("m1"));
        }
    }

    @Test
    void aNegativeDurationIsRefusedNamingTheQueueAndChangesNothing() {
        assertThatThrownBy(() -> queue.pause(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1")
                .hasMessageContaining("orders");
        assertThat(queue.stats().paused()).isFalse();
    }

    @Test
    void aPauseLongerThanFourteenDaysIsRefusedNamingTheQueueAndChangesNothing() {
        assertThatThrownBy(() -> queue.pause(Duration.ofDays(14).plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 1209600000 ms")
                .hasMessageContaining("orders");
        assertThat(queue.stats().paused()).isFalse();

        queue.pause(Duration.ofDays(14));
        assertThat(queue.stats().paused()).isTrue();
    }
}
