package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Claims as batches of one claimant, and for several claimants at once, a batch each: the fair share, and a crashed
 * batch that fails none of its messages.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BatchClaimTest extends QueueTestBase {

    private ReliableQueue orders(long visibilityMs, int maxRetries) {
        return queueOfMode(settings(visibilityMs, maxRetries, 60_000));
    }

    private static Claimant claimant(String id) {
        return new Claimant(id, Duration.ofMinutes(1));
    }

    private static List<NewMessage> messages(int count) {
        return IntStream.range(0, count).mapToObj(i -> message("m" + i, "body" + i)).toList();
    }

    @Test
    void aClaimTakesNoMoreThanItsShareOfWhatIsReadyAmongTheLiveClaimants() {
        ReliableQueue q = orders(30_000, 3);
        for (String id : List.of("a", "b", "c", "d")) {
            assertThat(q.claim(claimant(id), 10)).as("an empty queue, and " + id + " counts as live").isEmpty();
        }
        q.enqueue(messages(8));

        assertThat(q.claim(claimant("a"), 10)).as("8 ready, 4 live: a share of 2").hasSize(2);
        assertThat(q.claim(claimant("b"), 10)).as("6 ready, 4 live").hasSize(2);
        assertThat(q.claim(claimant("c"), 1)).as("no more than asked").hasSize(1);
        assertThat(q.claim(claimant("d"), 10)).as("3 ready, 4 live: at least one").hasSize(1);
    }

    @Test
    void aClaimForSeveralClaimantsGivesEachItsShareAndCountsEachAsLive() {
        ReliableQueue q = orders(30_000, 3);
        q.enqueue(messages(6));

        Claimed claimed = q.claim(claimant("w"), List.of(claimant("a"), claimant("b"), claimant("c")), 10,
                new ClaimId());

        assertThat(ids(claimed)).as("6 ready, 3 live: a share of 2 each, in order")
                .containsExactly(List.of("m0", "m1"), List.of("m2", "m3"), List.of("m4", "m5"));
        q.enqueue(messages(8).stream().map(m -> message("n" + m.id(), "x")).toList());
        assertThat(q.claim(claimant("d"), 10)).as("8 ready, a, b, c and d live: a share of 2").hasSize(2);
    }

    @Test
    void eachPartOfAJointClaimIsABatchOfItsOwnWhenItsConsumerDies() {
        ReliableQueue q = orders(200, 0);
        q.enqueue(messages(3));
        Claimed claimed = q.claim(claimant("w"), List.of(claimant("a"), claimant("b")), 10, new ClaimId());
        assertThat(claimed.parts()).as("3 ready, 2 live: parts of 2 and 1").extracting(List::size)
                .containsExactly(2, 1);

        awaitReaped(q, 3);

        assertThat(counts(q).dead()).as("the message held alone failed its only delivery; its part-mates none")
                .isEqualTo(1);
        assertThat(q.browse(QueueSection.DEAD, 10)).extracting(BrowsedMessage::messageId).containsExactly("m2");
    }

    /** m0 and m1 claimed in one batch whose consumer died, reaped (each to be claimed alone), then later ones. */
    private ReliableQueue batchCrashedThen(List<NewMessage> later) {
        ReliableQueue q = orders(200, 3);
        q.enqueue(messages(2));
        assertThat(q.claim(2)).hasSize(2);
        awaitReaped(q, 2);
        q.enqueue(later);
        return q;
    }

    @Test
    void aMessageClaimedAloneIsAPartOfItsOwnInAJointClaim() {
        ReliableQueue q = batchCrashedThen(IntStream.range(0, 4).mapToObj(i -> message("later" + i, "x")).toList());

        Claimed claimed = q.claim(claimant("w"), List.of(claimant("a"), claimant("b"), claimant("c")), 10,
                new ClaimId());

        assertThat(ids(claimed)).as("6 ready, 4 live (the direct claimant too): a share of 2, the crashed two alone")
                .containsExactly(List.of("m0"), List.of("m1"), List.of("later0", "later1"));
    }

    @Test
    void aClaimantWhoseLiveWindowHasPassedNoLongerTakesAShare() {
        ReliableQueue q = orders(30_000, 3);
        assertThat(q.claim(new Claimant("gone", Duration.ofMillis(50)), 10)).isEmpty();
        long claimedAt = now();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> now() - claimedAt > 50);
        q.enqueue(messages(8));

        assertThat(q.claim(claimant("alone"), 10)).as("the other claimant's window passed").hasSize(8);
    }

    @Test
    void aBatchWhoseConsumerDiedFailsNoneOfItsMessagesAndEachComesBackToBeClaimedAlone() {
        ReliableQueue q = orders(200, 0);
        q.enqueue(messages(3));
        assertThat(q.claim(3)).as("one batch of three").hasSize(3);

        awaitReaped(q, 3);
        assertThat(counts(q).dead()).as("maxRetries=0, and yet none failed").isZero();

        List<Delivery> alone = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<Delivery> claimed = q.claim(3);
            assertThat(claimed).as("each is claimed alone").hasSize(1);
            assertThat(claimed.get(0).deliveryCount()).as("its crashed delivery counted").isEqualTo(2);
            alone.add(claimed.get(0));
        }
        assertThat(q.ack(alone.subList(1, 3).stream().map(Delivery::lease).toList())).containsOnly(Settled.ACKED);

        // the first dies again, held alone this time: that delivery fails, its only one with maxRetries=0
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> q.reap().expiredDeadLettered() == 1);
        assertThat(counts(q)).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(q.browse(QueueSection.DEAD, 10)).singleElement()
                .satisfies(dead -> assertThat(dead.messageId()).isEqualTo(alone.get(0).messageId()));
    }

    @Test
    void aMessageClaimedAloneIsNotTakenIntoABatchOfTheMessagesAfterIt() {
        ReliableQueue q = batchCrashedThen(List.of(message("later1", "x"), message("later2", "y")));

        List<Delivery> first = q.claim(10);
        List<Delivery> second = q.claim(10);
        assertThat(first).hasSize(1);
        assertThat(second).hasSize(1);
        List<Delivery> rest = q.claim(10);
        assertThat(rest).extracting(Delivery::messageId).containsExactly("later1", "later2");
        assertThat(rest).extracting(Delivery::deliveryCount).containsOnly(1);
    }

    @Test
    void aNackOfAMessageOfACrashedBatchCountsOnlyTheFailedDeliveries() {
        ReliableQueue q = orders(200, 1);
        q.enqueue(messages(2));
        assertThat(q.claim(2)).hasSize(2);
        awaitReaped(q, 2);

        Delivery again = q.claim(1).get(0);
        assertThat(again.deliveryCount()).isEqualTo(2);
        assertThat(q.nack(List.of(new Failure(again.lease(), "boom"))))
                .as("one failed delivery of the two allowed: a retry").containsExactly(Settled.RETRY_SCHEDULED);
    }

    /** The message ids of each part of the claim. */
    private static List<List<String>> ids(Claimed claimed) {
        return claimed.parts().stream().map(part -> part.stream().map(Delivery::messageId).toList()).toList();
    }

    /** Reaps until the expired leases of {@code count} messages are returned. */
    private void awaitReaped(ReliableQueue q, int count) {
        long[] returned = {0};
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            ReapResult reaped = q.reap();
            returned[0] += reaped.expiredReturned() + reaped.expiredDeadLettered();
            return returned[0] >= count;
        });
    }
}
