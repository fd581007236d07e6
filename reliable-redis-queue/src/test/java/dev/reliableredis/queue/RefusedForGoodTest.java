package dev.reliableredis.queue;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Which of Redis's own refusals a retry of the same call cannot cure ({@link QueueException#isRefusedForGood}): the
 * settler fails a delivery whose ack Redis refuses so, and retries the others.
 */
class RefusedForGoodTest extends QueueTestBase {

    @Test
    void aKeyOfTheWrongTypeIsRefusedForGood() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.set(key("orders", "ready"), "not a list");

        Throwable refusal = catchThrowable(() -> q.enqueue(message("m1", "x")));

        assertThat(refusal).hasMessageContaining("WRONGTYPE");
        assertThat(QueueException.isRefusedForGood(refusal)).isTrue();
    }

    @Test
    void aReplicaRefusingWritesUntilItIsPromotedIsNot() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        // a master that is not there: the server stays a read-only replica
        raw.replicaof("127.0.0.1", 1);
        Throwable refusal;
        try {
            refusal = catchThrowable(() -> q.enqueue(message("m1", "x")));
        } finally {
            raw.replicaofNoOne();
        }

        assertThat(refusal).hasMessageContaining("READONLY");
        assertThat(QueueException.isRefusedForGood(refusal)).isFalse();
    }
}
