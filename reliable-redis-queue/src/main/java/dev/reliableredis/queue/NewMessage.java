package dev.reliableredis.queue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.reliableredis.queue.internal.HeaderCodec;

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
    /**
     * The stored header that keeps a message's group id, so that its deliveries tell it. A Camel header name, which
     * consumers do not let in.
     */
    public static final String GROUP_HEADER = "CamelReliableRedisGroupId";
    /** The longest group id, in characters (as Amazon SQS's MessageGroupId). */
    public static final int MAX_GROUP_ID_LENGTH = 128;
    /** The longest delay: 14 days, as Amazon SQS's longest retention (docs/decisions.md). */
    public static final long MAX_DELAY_MS = Duration.ofDays(14).toMillis();
    /** The longest time to live: 14 days, as Amazon SQS's longest retention (docs/decisions.md). */
    public static final long MAX_TIME_TO_LIVE_MS = Duration.ofDays(14).toMillis();
    /** The level of a message sent without a priority: JMS's default, the middle of 0 (lowest) to 9 (highest). */
    public static final int DEFAULT_PRIORITY = 4;

    /** Whether a header of this value travels with a message: null, a String, Integer, Long, Double or Boolean. */
    public static boolean canCarry(Object headerValue) {
        return HeaderCodec.isSupported(headerValue);
    }

    private final String id;
    private final byte[] body;
    private final Map<String, Object> headers;
    private final long delayMs;
    private final String shardKey;
    private final long timeToLiveMs;
    private final int priority;
    private final String groupId;
    private final String encodedHeaders;

    /**
     * @param id       the message id: enqueueing an id that still exists, or was acked within the idempotency window,
     *                 is a no-op
     * @param body     the body, stored and delivered byte for byte
     * @param headers  headers that travel with the message (String, Integer, Long, Double, Boolean or byte[] values)
     * @param delayMs  deliver no sooner than this many ms after the enqueue (Redis server time); 0 for now; at most
     *                 {@link #MAX_DELAY_MS}
     * @param shardKey for a sharded queue: messages with the same shard key go to the same shard; null: the id picks
     *                 the shard
     * @param timeToLiveMs a message not claimed within this many ms of the enqueue (Redis server time) is never
     *                     delivered but dead-lettered or dropped; 0: it lives until consumed; at most
     *                     {@link #MAX_TIME_TO_LIVE_MS}
     * @param priority     list mode: its priority level, 0 (lowest) to 9 (highest)
     * @param groupId      list mode: its FIFO message group, delivered one at a time in enqueue order; null: none. A
     *                     group id is the shard key, and a grouped message has no delay and the default priority
     */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey,
            long timeToLiveMs, int priority, String groupId) {
        this.id = Objects.requireNonNull(id, "id");
        this.body = Objects.requireNonNull(body, "body");
        this.headers = headers == null ? Map.of() : headers;
        if (id.isEmpty()) {
            throw new IllegalArgumentException("Message id must not be empty");
        }
        if (delayMs < 0 || delayMs > MAX_DELAY_MS) {
            throw new IllegalArgumentException("Delay must be 0 to " + MAX_DELAY_MS + " ms (14 days), was " + delayMs
                                               + " ms");
        }
        if (timeToLiveMs < 0 || timeToLiveMs > MAX_TIME_TO_LIVE_MS) {
            throw new IllegalArgumentException("Time to live must be 0 ms (none) to " + MAX_TIME_TO_LIVE_MS
                                               + " ms (14 days), was " + timeToLiveMs + " ms");
        }
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("Priority must be 0 (lowest) to 9 (highest), was " + priority);
        }
        if (groupId != null) {
            checkGroup(id, groupId, delayMs, shardKey, priority);
        }
        this.delayMs = delayMs;
        this.shardKey = groupId != null ? groupId : shardKey;
        this.timeToLiveMs = timeToLiveMs;
        this.priority = priority;
        this.groupId = groupId;
        this.encodedHeaders = HeaderCodec.encode(stored(this.headers, this.shardKey, priority, groupId));
    }

    private static void checkGroup(String id, String groupId, long delayMs, String shardKey, int priority) {
        if (groupId.isEmpty() || groupId.length() > MAX_GROUP_ID_LENGTH) {
            throw new IllegalArgumentException("Group id of message " + id + " must be 1 to " + MAX_GROUP_ID_LENGTH
                    + " characters, was " + groupId.length());
        }
        String refusal = delayMs > 0 ? "a delay of " + delayMs + " ms"
                : priority != DEFAULT_PRIORITY ? "priority " + priority
                : shardKey != null && !shardKey.equals(groupId) ? "shard key '" + shardKey + "'" : null;
        if (refusal != null) {
            throw new IllegalArgumentException("Message " + id + " of group '" + groupId + "' has " + refusal
                    + ": a group is delivered in its enqueue order, from the shard its group id picks");
        }
    }

    /** The headers as stored: with the shard key, a priority other than the default and the group, when there are. */
    private static Map<String, Object> stored(Map<String, Object> headers, String shardKey, int priority,
            String groupId) {
        if (shardKey == null && priority == DEFAULT_PRIORITY && groupId == null) {
            return headers;
        }
        Map<String, Object> stored = new LinkedHashMap<>(headers);
        if (shardKey != null) {
            stored.put(SHARD_KEY_HEADER, shardKey);
        }
        if (priority != DEFAULT_PRIORITY) {
            stored.put(PRIORITY_HEADER, priority);
        }
        if (groupId != null) {
            stored.put(GROUP_HEADER, groupId);
        }
        return stored;
    }

    /** A message without a group. */
    public NewMessage(String id, byte[] body, Map<String, Object> headers, long delayMs, String shardKey,
            long timeToLiveMs, int priority) {
        this(id, body, headers, delayMs, shardKey, timeToLiveMs, priority, null);
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

    /** Its FIFO message group; null: none. */
    public String groupId() {
        return groupId;
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
               + (priority != DEFAULT_PRIORITY ? ", priority " + priority : "")
               + (groupId != null ? ", group " + groupId : "") + "]";
    }
}
