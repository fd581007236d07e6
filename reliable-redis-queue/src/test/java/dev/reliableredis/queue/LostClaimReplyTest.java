package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A claim that Redis runs but whose reply the claimant never gets: Redis is paused (CLIENT PAUSE) past the claim's
 * command timeout and runs the claim when the pause ends, leasing its messages to no one. The claimant's next claim,
 * made with the same claim id, gets them, under the first run's delivery count, instead of their waiting out a
 * one-minute lease (and, with maxRetries=0, being dead-lettered unseen). Lettuce's re-sending of a claim that was in
 * flight when its connection dropped is the same claim run twice.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream", "sharded"})
class LostClaimReplyTest extends QueueTestBase {

    private RedisGateway impatient;
    private ReliableQueue queue;

    @BeforeEach
    void queueWithAShortCommandTimeout() {
        impatient = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofMillis(300));
        QueueSettings settings = settings(60_000, 0, 100);
        queue = switch (mode) {
            case "list" -> ListQueue.of(impatient, "rr", "orders", settings);
            case "stream" -> StreamQueue.of(impatient, "rr", "orders", group("g", "c1"), settings);
            default -> ShardedQueue.of("orders", 2, i -> ListQueue.of(impatient, "rr", QueueNames.shard("orders", i),
                    settings));
        };
        // the connection and the claim script ready before Redis pauses, so that the claim itself goes unanswered
        assertThat(queue.claim(THREAD, 1, new ClaimId())).isEmpty();
        queue.enqueue(message("m1", "once"));
    }

    @AfterEach
    void closeImpatient() {
        impatient.close();
    }

    @Test
    void aClaimMadeAgainWithTheIdOfOneWhoseReplyWasLostGetsItsMessages() {
        ClaimId claimId = new ClaimId();
        loseTheReplyOfAClaim(() -> queue.claim(THREAD, 10, claimId));

        List<Delivery> again = queue.claim(THREAD, 10, claimId);

        assertThat(again).singleElement().satisfies(d -> {
            assertThat(d.messageId()).isEqualTo("m1");
            assertThat(d.deliveryCount()).as("the lost claim's delivery, not a second one").isEqualTo(1);
        });
        assertThat(queue.ack(List.of(again.get(0).lease()))).containsExactly(Settled.ACKED);
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void aConsumerThreadsNextClaimAfterALostReplyGetsItsMessages() {
        try (Claimer claimer = queue.newClaimer(THREAD)) {
            loseTheReplyOfAClaim(() -> claimer.claim(10, Duration.ofMillis(100)));

            assertThat(claimer.claim(10, Duration.ofMillis(100))).singleElement()
                    .satisfies(d -> assertThat(d.deliveryCount()).isEqualTo(1));
        }
    }

    @Test
    void aNewClaimTakesNothingOfAnotherClaimsRecord() {
        ClaimId claimId = new ClaimId();
        loseTheReplyOfAClaim(() -> queue.claim(THREAD, 10, claimId));

        assertThat(queue.claim(THREAD, 10, new ClaimId())).as("m1 is leased to the lost claim").isEmpty();
        assertThat(queue.claim(THREAD, 10, claimId)).hasSize(1);
        assertThat(queue.claim(THREAD, 10, claimId)).as("renewed: a new claim").isEmpty();
    }

    /**
     * Makes the claim while Redis is paused, so that it fails on its command timeout, and waits until Redis has run it
     * after the pause: m1 is in flight.
     */
    private void loseTheReplyOfAClaim(Runnable claim) {
        raw.clientPause(1000);

        assertThatThrownBy(claim::run).isInstanceOf(QueueException.class);

        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> counts(queue).equals(new QueueStats(0, 1, 0, 0)));
    }
}
