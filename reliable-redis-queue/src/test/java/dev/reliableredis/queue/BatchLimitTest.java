package dev.reliableredis.queue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The most one script call takes, {@link ReliableQueue#MAX_BATCH}, in both modes: a full batch works in every step, and
 * one more is refused before the script writes anything, so nothing already in Redis is lost or half-written.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BatchLimitTest extends QueueTestBase {

    private ReliableQueue queue() {
        return queueOfMode(settings(30_000, 3, 100));
    }

    private static List<NewMessage> messages(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> message("m" + i, "body " + i)).toList();
    }

    @Test
    void aFullBatchIsEnqueuedClaimedExtendedAndAckedInOneCallEach() {
        ReliableQueue queue = queue();
        assertThat(queue.enqueue(messages(0, ReliableQueue.MAX_BATCH))).containsOnly(true);

        List<Delivery> claimed = queue.claim(ReliableQueue.MAX_BATCH);
        assertThat(claimed).hasSize(ReliableQueue.MAX_BATCH);
        List<Lease> leases = claimed.stream().map(Delivery::lease).toList();
        assertThat(queue.extend(leases)).hasSize(ReliableQueue.MAX_BATCH).containsOnly(Settled.EXTENDED);
        assertThat(queue.ack(leases)).hasSize(ReliableQueue.MAX_BATCH).containsOnly(Settled.ACKED);
        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void aClaimOfMoreThanABatchIsRefusedAndTakesNothing() {
        ReliableQueue queue = queue();
        queue.enqueue(messages(0, 10));

        assertThatThrownBy(() -> queue.claim(ReliableQueue.MAX_BATCH + 1)).isInstanceOf(QueueException.class)
                .hasMessageContaining("claim on queue 'orders' failed")
                .hasMessageContaining("claim of 1001 in one call; at most 1000");
        assertThat(counts(queue)).isEqualTo(new QueueStats(10, 0, 0, 0));
        assertThat(queue.claim(10)).hasSize(10);
    }

    @Test
    void anEnqueueOfMoreThanABatchIsRefusedAndStoresNothing() {
        ReliableQueue queue = queue();
        queue.enqueue(messages(0, 10));

        assertThatThrownBy(() -> queue.enqueue(messages(10, ReliableQueue.MAX_BATCH + 1)))
                .hasMessageContaining("enqueue of 1001 in one call; at most 1000");
        assertThat(counts(queue)).isEqualTo(new QueueStats(10, 0, 0, 0));
    }

    @Test
    void settlementsOfMoreThanABatchAreRefusedAndChangeNothing() {
        ReliableQueue queue = queue();
        queue.enqueue(messages(0, 10));
        List<Lease> held = queue.claim(10).stream().map(Delivery::lease).toList();
        List<Lease> tooMany = IntStream.range(0, ReliableQueue.MAX_BATCH + 1).mapToObj(i -> held.get(i % 10)).toList();

        assertThatThrownBy(() -> queue.ack(tooMany)).hasMessageContaining("ack of 1001 in one call");
        assertThatThrownBy(() -> queue.nack(tooMany.stream().map(l -> new Failure(l, "boom")).toList()))
                .hasMessageContaining("nack of 1001 in one call");
        assertThatThrownBy(() -> queue.extend(tooMany)).hasMessageContaining("extend of 1001 in one call");
        assertThatThrownBy(() -> queue.release(tooMany)).hasMessageContaining("release of 1001 in one call");

        assertThat(counts(queue)).isEqualTo(new QueueStats(0, 10, 0, 0));
        assertThat(queue.ack(held)).containsOnly(Settled.ACKED);
    }
}
