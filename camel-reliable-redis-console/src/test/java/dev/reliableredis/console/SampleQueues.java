package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queues of both modes with messages in every state, put there through the engine as a consumer would: per queue
 * 3 ready, 1 in flight, 1 delayed and 2 dead letters, one of them with markup in its body, failure and header.
 */
final class SampleQueues {

    static final String PREFIX = "rr";
    static final String LIST_QUEUE = "orders";
    static final String STREAM_QUEUE = "payments";
    static final String GROUP = "camel";
    static final String XSS_BODY = "<img src=x onerror=\"document.title='xss'\">";
    static final String XSS_FAILURE = "java.lang.IllegalStateException: <b>boom</b>";

    /** Leases outlast any test; the dashboard is told this timeout, so that it shows list mode's lease ages right. */
    static final Duration VISIBILITY_TIMEOUT = Duration.ofMinutes(10);
    /** One failure dead-letters: the messages reach the dead letters on their first nack. */
    static final QueueSettings SETTINGS = QueueSettings.builder().visibilityTimeout(VISIBILITY_TIMEOUT).maxRetries(0)
            .build();

    private SampleQueues() {
    }

    static ListQueue listQueue(RedisGateway redis) {
        return listQueue(redis, SETTINGS);
    }

    /** The list queue, its layout version recorded as an endpoint records it before its first send. */
    static ListQueue listQueue(RedisGateway redis, QueueSettings settings) {
        Queues.shardCount(redis, PREFIX, LIST_QUEUE, 1, null).check();
        return ListQueue.of(redis, PREFIX, LIST_QUEUE, settings);
    }

    static StreamQueue streamQueue(RedisGateway redis) {
        return streamQueue(redis, SETTINGS);
    }

    /** The stream queue, its layout version recorded as an endpoint records it before its first send. */
    static StreamQueue streamQueue(RedisGateway redis, QueueSettings settings) {
        StreamOptions options = new StreamOptions(null, null, GROUP, "0", "filler", 0, true);
        Queues.shardCount(redis, PREFIX, STREAM_QUEUE, 1, options).check();
        return StreamQueue.of(redis, PREFIX, STREAM_QUEUE, options, settings);
    }

    static void fill(RedisGateway redis) {
        fill(listQueue(redis));
        fill(streamQueue(redis));
    }

    /** In this order, so that each claim takes exactly the messages meant for it. */
    static void fill(ReliableQueue queue) {
        String q = queue.name();
        queue.enqueue(new NewMessage(q + "-dead-1", XSS_BODY.getBytes(StandardCharsets.UTF_8),
                Map.of("note", "<script>alert(1)</script>"), 0));
        queue.enqueue(message(q + "-dead-2", "{\"order\":2}", 0));
        List<Delivery> failing = queue.claim(2);
        assertThat(failing).hasSize(2);
        assertThat(queue.nack(List.of(new Failure(failing.get(0).lease(), XSS_FAILURE),
                new Failure(failing.get(1).lease(), "java.io.IOException: timeout"))))
                .containsOnly(Settled.DEAD_LETTERED);

        queue.enqueue(message(q + "-inflight-1", "{\"order\":3}", 0));
        assertThat(queue.claim(1)).hasSize(1);

        queue.enqueue(message(q + "-delayed-1", "{\"order\":4}", Duration.ofHours(1).toMillis()));
        for (int i = 1; i <= 3; i++) {
            queue.enqueue(message(q + "-ready-" + i, "{\"order\":" + (4 + i) + "}", 0));
        }
    }

    private static NewMessage message(String id, String body, long delayMs) {
        return new NewMessage(id, body.getBytes(StandardCharsets.UTF_8), Map.of(), delayMs);
    }
}
