package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.queue.runtime.QueueConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The engine consumed from plain Java: the handler's outcome settles each message by the contract's outcome table,
 * with the threads, leases and reaper of the Camel consumer.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class QueueConsumerTest extends QueueTestBase {

    /** maxRetries 1: a message whose two deliveries fail is dead-lettered. */
    private ReliableQueue orders() {
        return queueOfMode(settings(30_000, 1, 50));
    }

    @Test
    void aHandlerThatReturnsAcksItsMessages() {
        ReliableQueue queue = orders();
        queue.enqueue(List.of(message("m1", "a"), message("m2", "b"), message("m3", "c")));
        Set<String> handled = ConcurrentHashMap.newKeySet();

        try (QueueConsumer consumer = QueueConsumer.of(queue).threads(2).start(d -> handled.add(d.messageId()))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> counts(queue).equals(new QueueStats(0, 0, 0, 0)));
        }

        assertThat(handled).containsExactlyInAnyOrder("m1", "m2", "m3");
    }

    @Test
    void aHandlerThatThrowsHasItsMessageRetriedThenDeadLetteredWithTheFailure() {
        ReliableQueue queue = orders();
        queue.enqueue(List.of(message("bad", "x")));
        List<Integer> deliveries = new CopyOnWriteArrayList<>();
        List<String> reported = new CopyOnWriteArrayList<>();

        try (QueueConsumer consumer = QueueConsumer.of(queue).reaperInterval(Duration.ofMillis(100))
                .errors((what, cause) -> reported.add(what)).start(d -> {
            deliveries.add(d.deliveryCount());
            throw new IllegalStateException("card declined");
        })) {
            await().atMost(Duration.ofSeconds(10)).until(() -> counts(queue).dead() == 1);
        }

        assertThat(deliveries).containsExactly(1, 2);
        assertThat(queue.browse(QueueSection.DEAD, 10)).singleElement()
                .satisfies(dead -> assertThat(dead.failure()).isEqualTo(
                        "java.lang.IllegalStateException: card declined"));
        assertThat(reported).containsExactly("Message 'bad' of queue 'orders' failed",
                "Message 'bad' of queue 'orders' failed");
    }

    /** A retry-after uses no retry: with maxRetries 1, a message asked to wait twice still runs a third time. */
    @Test
    void aRetryAfterRunsTheMessageAgainWithoutCountingAFailure() {
        ReliableQueue queue = orders();
        queue.enqueue(List.of(message("later", "x")));
        List<Integer> deliveries = new CopyOnWriteArrayList<>();

        try (QueueConsumer consumer = QueueConsumer.of(queue).reaperInterval(Duration.ofMillis(100)).start(d -> {
            deliveries.add(d.deliveryCount());
            if (deliveries.size() < 3) {
                throw new RetryAfterException(Duration.ofMillis(100));
            }
        })) {
            await().atMost(Duration.ofSeconds(10)).until(() -> counts(queue).equals(new QueueStats(0, 0, 0, 0)));
        }

        assertThat(deliveries).containsExactly(1, 2, 3);
    }

    @Test
    void badSettingsAreRefusedNamingTheOption() {
        ReliableQueue queue = orders();

        assertThatThrownBy(() -> QueueConsumer.of(queue).threads(0)).hasMessage("threads must be between 1 and 1000, "
                                                                               + "was 0");
        assertThatThrownBy(() -> QueueConsumer.of(queue).pollTimeout(Duration.ZERO))
                .hasMessage("pollTimeout must be a positive duration, was PT0S");
        assertThatThrownBy(() -> new RetryAfterException(Duration.ofMillis(-1)))
                .hasMessageContaining("cannot be negative");
    }
}
