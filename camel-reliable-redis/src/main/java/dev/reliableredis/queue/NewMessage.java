package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message to enqueue. Its headers are encoded as they travel when it is made, on the thread that sends it, so
 * that the thread which hands a batch to Redis (often Lettuce's I/O thread, when the call before completes) only
 * copies bytes.
 */
public final class NewMessage {

    /**
     * The stored header that keeps a message's shard key, so that a reshard puts the message where its key picks
     * (list.ListReshard). A Camel header name, which consumers do not let in.
     */
    public static final String SHARD_KEY_HEADER = "CamelReliableRedisShardKey";
    /**
     * The stored header that keeps a message's priority level when it is not {@link #DEFAULT_PRIORITY}, so that its
     * deliveries tell it. A Camel header name, which consumers do not let in.
     */
    public static final String PRIORITY_HEADER = "CamelReliableRedisPriority";
    /** The level of a message sent without a priority: JMS's default, the middle of 0 (lowest) to 9 (highest). */
    public static final int DEFAULT_PRIORITY = 4;

    private final String id;
    private final byte[] body;
    private final Map<String, Object> headers;
    private final long delayMs;
    private final String shardKey;
    private final long timeToLiveMs;
    private final int priority;
    private final String encodedHeaders;

    /**
     * @param id       the message id: enqueueing an id that still exists, or was acked within the idempotency window,
     *                 is a no-op
     * @param body     the body, stored and delivered byte for byte
     * @param headers  headers that travel with the message (String, Integer, Long, Double, Boolean or byte[] values)
     * @param delayMs  deliver no sooner than this many ms after the enqueue (Redis server time); 0 for now
     * @param shardKey for a sharded queue: messages with the same shard key go to the same shard; null: the id picks
     *                 the shard
     * @param timeToLiveMs a message not claimed within this many ms of the enqueue (Redis server time) is never
     *                     delivered but dead-lettered or dropped; 0: it lives until consumed
     * @param priority     list mode: its priority level, 0 (lowest) to 9 (highest)
     */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey,
            long timeToLiveMs, int priority) {
        this.id = Objects.requireNonNull(id, "id");
        this.body = Objects.requireNonNull(body, "body");
        this.headers = headers == null ? Map.of() : headers;
        if (id.isEmpty()) {
            throw new IllegalArgumentException("Message id must not be empty");
        }
        if (delayMs < 0) {
            throw new IllegalArgumentException("Delay must be 0 ms or more, was " + delayMs + " ms");
        }
        if (timeToLiveMs < 0) {
            throw new IllegalArgumentException("Time to live must be 0 ms (none) or more, was " + timeToLiveMs
                                               + " ms");
        }
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("Priority must be 0 (lowest) to 9 (highest), was " + priority);
        }
        this.delayMs = delayMs;
        this.shardKey = shardKey;
        this.timeToLiveMs = timeToLiveMs;
        this.priority = priority;
        this.encodedHeaders = HeaderCodec.encode(stored(this.headers, shardKey, priority));
    }

    /** The headers as stored: with the shard key and a priority other than the default, when there are. */
    private static Map<String, Object> stored(Map<String, Object> headers, String shardKey, int priority) {
        if (shardKey == null && priority == DEFAULT_PRIORITY) {
            return headers;
        }
        Map<String, Object> stored = new LinkedHashMap<>(headers);
        if (shardKey != null) {
            stored.put(SHARD_KEY_HEADER, shardKey);
        }
        if (priority != DEFAULT_PRIORITY) {
            stored.put(PRIORITY_HEADER, priority);
        }
        return stored;
    }

    /** A message of the default priority. */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey,
            long timeToLiveMs) {
        this(id, body, headers, delayMs, shardKey, timeToLiveMs, DEFAULT_PRIORITY);
    }

    /** A message that lives until consumed. */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey) {
        this(id, body, headers, delayMs, shardKey, 0);
    }

    /** A message whose id picks its shard, and that lives until consumed. */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs) {
        this(id, body, headers, delayMs, null, 0);
    }

    public String id() {
        return id;
    }

    public byte[] body() {
        return body;
    }

    public Map<String, Object> headers() {
        return headers;
    }

    public long delayMs() {
        return delayMs;
    }

    public String shardKey() {
        return shardKey;
    }

    /** The time to live in ms from the enqueue; 0: none. */
    public long timeToLiveMs() {
        return timeToLiveMs;
    }

    /** Its priority level, 0 (lowest) to 9 (highest). */
    public int priority() {
        return priority;
    }

    /** The headers as they travel ({@link HeaderCodec#encode}), "" for none. */
    public String encodedHeaders() {
        return encodedHeaders;
    }

    @Override
    public String toString() {
        return "NewMessage[" + id + ", " + body.length + " bytes, " + headers.size() + " headers, delay " + delayMs
               + " ms" + (timeToLiveMs > 0 ? ", time to live " + timeToLiveMs + " ms" : "")
               + (shardKey != null ? ", shard key " + shardKey : "")
               + (priority != DEFAULT_PRIORITY ? ", priority " + priority : "") + "]";
    }
}
