package dev.reliableredis.queue;

import java.util.Map;
import java.util.Objects;

/**
 * A message to enqueue.
 *
 * @param id      the message id: enqueueing an id that still exists, or was acked within the idempotency window,
 *                is a no-op
 * @param body    the body, stored and delivered byte for byte
 * @param headers headers that travel with the message (String, Integer, Long, Double, Boolean or byte[] values)
 * @param delayMs deliver no sooner than this many ms after the enqueue (Redis server time); 0 for now
 * @param shardKey for a sharded queue: messages with the same shard key go to the same shard; null: the id picks
 *                 the shard
 */
public record NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey) {

    /** A message whose id picks its shard. */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs) {
        this(id, body, headers, delayMs, null);
    }

    public NewMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        headers = headers == null ? Map.of() : headers;
        if (id.isEmpty()) {
            throw new IllegalArgumentException("Message id must not be empty");
        }
        if (delayMs < 0) {
            throw new IllegalArgumentException("Delay must be 0 ms or more, was " + delayMs + " ms");
        }
    }
}
