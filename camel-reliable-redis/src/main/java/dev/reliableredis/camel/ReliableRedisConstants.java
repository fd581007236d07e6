package dev.reliableredis.camel;

import org.apache.camel.spi.Metadata;

/** The headers of the reliable-redis component. */
public interface ReliableRedisConstants {

    @Metadata(description = "Consumer: the id of the delivered message. Producer: set after the send to the id the "
                            + "message is stored under (for a List body, the List of the ids, in order). The "
                            + "producer never reads it, so a consumed message's id can never turn a later send into "
                            + "a no-op.",
              javaType = "String")
    String MESSAGE_ID = "CamelReliableRedisMessageId";

    @Metadata(label = "producer",
              description = "Store the message under this id, idempotently: enqueueing an id that is still queued, "
                            + "delayed, in flight or dead, or that was acked within the consumer's "
                            + "idempotencyWindow, is a no-op. Absent: a fresh id, and every send enqueues. To chain "
                            + "queues without duplicates, set it from the consumed message's "
                            + "CamelReliableRedisMessageId. For a List body, element i is stored under id:i "
                            + "(orders.csv:0, orders.csv:1, ...), unless the element is a Camel Message with an id "
                            + "of its own.",
              javaType = "String")
    String DEDUPLICATION_ID = "CamelReliableRedisDeduplicationId";

    @Metadata(label = "producer",
              description = "With shards greater than 1: messages with the same shard key go to the same shard, so "
                            + "they keep their order relative to each other as on an unsharded queue. Absent: the "
                            + "message id (the deduplication id when set) picks the shard. A deduplication id is a "
                            + "no-op only on its own shard: send it with the same shard key every time. For a List "
                            + "body, it applies to every element that has none of its own. It is stored with the "
                            + "message (so that a reshard puts it where its key picks), and not set on consumed "
                            + "exchanges.",
              javaType = "String")
    String SHARD_KEY = "CamelReliableRedisShardKey";

    @Metadata(label = "producer",
              description = "Set after the send: true when the message was stored, false when the send was a no-op "
                            + "for a known id (for a List body, the List of these, in order).",
              javaType = "Boolean")
    String ENQUEUED = "CamelReliableRedisEnqueued";

    @Metadata(label = "consumer",
              description = "1 on the first delivery, one more on every redelivery (after a failure or an expired lease).",
              javaType = "Integer")
    String DELIVERY_COUNT = "CamelReliableRedisDeliveryCount";

    @Metadata(label = "consumer", description = "The queue name.", javaType = "String")
    String QUEUE = "CamelReliableRedisQueue";

    @Metadata(label = "consumer", description = "Redis server time of the first enqueue, epoch ms.",
              javaType = "Long")
    String ENQUEUED_AT = "CamelReliableRedisEnqueuedAt";

    @Metadata(label = "producer", description = "Deliver no sooner than this many ms from now (Redis server time).",
              javaType = "Long")
    String DELAY = "CamelReliableRedisDelay";

    @Metadata(label = "producer",
              description = "The message is never delivered unless claimed within this many ms of the "
                            + "send (Redis server time): it is dead-lettered, or dropped (expiredMessages); 0: it "
                            + "lives until consumed. Overrides the timeToLive option.",
              javaType = "Long")
    String TIME_TO_LIVE = "CamelReliableRedisTimeToLive";

    @Metadata(label = "producer",
              description = "List mode: the message's priority level, 0 (lowest) to 9 (highest), 4 when absent (the "
                            + "JMS convention). The levels are served by weighted round-robin, level p with weight "
                            + "p + 1, or strictly highest first (priorityMode). Delivered exchanges carry it as the "
                            + "exchange property of the same name, not as a header. Refused in stream mode.",
              javaType = "Integer")
    String PRIORITY = "CamelReliableRedisPriority";

    @Metadata(label = "producer",
              description = "List mode: the message's FIFO group (1 to 128 characters). One message of a group is "
                            + "delivered at a time, across every consumer, in the order they were sent; other groups "
                            + "flow past a slow or failing one; the group id picks the shard. A grouped message takes "
                            + "no delay and no priority. Delivered exchanges carry it as the exchange property of the "
                            + "same name, not as a header. Refused in stream mode.",
              javaType = "String")
    String GROUP_ID = "CamelReliableRedisGroupId";

    @Metadata(label = "consumer",
              description = "On a message of the queue's schedule (the schedule option): the tick it was fired for, "
                            + "epoch ms.",
              javaType = "Long")
    String SCHEDULED_FOR = "CamelReliableRedisScheduledFor";

    @Metadata(label = "producer",
              description = "The operation: enqueue (default); stats (the body becomes a Map with ready, inflight, "
                            + "delayed, dead, oldestReadyAge, oldestInflightAge, paused, capped, limited and "
                            + "groups, and oldestPendingAge in stream mode); redrive (move dead letters back to ready, the body "
                            + "becomes the count moved); purge (remove every ready, delayed and dead message, the body becomes "
                            + "the count removed); pause (no consumer of the queue, in any JVM, claims a message "
                            + "until resume, or for CamelReliableRedisPauseDuration ms; the body becomes that "
                            + "duration, 0 for until resumed); resume (end the pause and wake the consumers at once; "
                            + "the body becomes whether the queue was paused); reshard (give the queue a new shard "
                            + "count, moving its messages; see CamelReliableRedisShards); unschedule (remove the "
                            + "queue's schedule; the body becomes whether it had one).",
              javaType = "String", enums = "enqueue,stats,redrive,purge,pause,resume,reshard,unschedule")
    String OPERATION = "CamelReliableRedisOperation";

    @Metadata(label = "producer",
              description = "pause: how long the pause lasts, in ms (Redis time); absent or 0: until resumed.",
              javaType = "Long")
    String PAUSE_DURATION = "CamelReliableRedisPauseDuration";

    @Metadata(label = "producer", description = "redrive: the most dead letters to move (default: all).",
              javaType = "Long")
    String LIMIT = "CamelReliableRedisLimit";

    @Metadata(label = "producer", description = "reshard: the queue's new shard count, sent through an endpoint "
                                                + "with the current count while no consumer runs (in stream mode, "
                                                + "with nothing pending); the messages move to the new shards. The "
                                                + "body becomes the new count.",
              javaType = "Integer")
    String SHARDS = "CamelReliableRedisShards";

    @Metadata(label = "consumer",
              description = "Set by the route on a delivered exchange: give the message back, due again after this "
                            + "many ms (at most maxRetryAfter), instead of acking or nacking it, whether the exchange "
                            + "completed or failed. No retry is used up; the delivery count still goes up.",
              javaType = "Long")
    String RETRY_AFTER = "CamelReliableRedisRetryAfter";

    @Metadata(label = "consumer",
              description = "On dead letters: why the message was dead-lettered, the exception class and message or "
                            + "'lease expired'.",
              javaType = "String")
    String FAILURE = "CamelReliableRedisFailure";
}
