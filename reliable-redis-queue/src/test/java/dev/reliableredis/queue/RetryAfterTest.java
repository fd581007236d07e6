package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A retry-after given back through the nack script: due again after its delay, no failure, no retry used up, the
 * delivery count going up as on every redelivery.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream", "sharded"})
class RetryAfterTest extends QueueTestBase {

    /** maxRetries=0: one failed delivery dead-letters. */
    private ReliableQueue queue() {
        return queueOfMode(settings(60_000, 0, 100));
    }

    @Test
    void aRetryAfterUsesUpNoRetryWhileTheDeliveryCountGoesUp() {
        ReliableQueue queue = queue();
        queue.enqueue(message("m1", "busy downstream"));

        for (int delivery = 1; delivery <= 3; delivery++) {
            // list mode: the reaper makes due messages ready; stream mode: the claim takes due retries itself
            queue.reap();
            Delivery d = queue.claim(10).get(0);
            assertThat(d.deliveryCount()).isEqualTo(delivery);
            assertThat(queue.nack(List.of(Failure.retryAfter(d.lease(), Duration.ZERO))))
                    .containsExactly(Settled.RETRY_AFTER);
            assertThat(counts(queue).dead()).isZero();
        }
        queue.reap();
        Delivery fourth = queue.claim(10).get(0);
        assertThat(fourth.deliveryCount()).isEqualTo(4);

        assertThat(queue.nack(List.of(new Failure(fourth.lease(), "a real failure"))))
                .as("its one failed delivery, maxRetries=0").containsExactly(Settled.DEAD_LETTERED);
    }

    @Test
    void aRetryAfterIsDueAfterItsDelayAndARetryAfterOfAStaleLeaseIsRefused() {
        ReliableQueue queue = queue();
        queue.enqueue(message("m1", "later"));
        Delivery d = queue.claim(10).get(0);

        assertThat(queue.nack(List.of(Failure.retryAfter(d.lease(), Duration.ofMinutes(10)))))
                .containsExactly(Settled.RETRY_AFTER);

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 1, 0));
        queue.reap();
        assertThat(queue.claim(10)).as("not due for 10 minutes").isEmpty();
        assertThat(queue.nack(List.of(Failure.retryAfter(d.lease(), Duration.ZERO))))
                .as("its lease ended with the first").containsExactly(Settled.REFUSED);
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void aNegativeRetryAfterIsRefusedNamingTheMessage() {
        ReliableQueue queue = queue();
        queue.enqueue(message("m1", "x"));
        Lease lease = queue.claim(10).get(0).lease();

        assertThatThrownBy(() -> Failure.retryAfter(lease, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1").hasMessageContaining("m1");
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 1, 0, 0));
    }
}
