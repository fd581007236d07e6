package dev.reliableredis.camel;

import org.apache.camel.spi.Metadata;

/** The headers of the reliable-redis component. */
public interface ReliableRedisConstants {

    @Metadata(description = "Producer: the message id; enqueueing an id that is still queued, delayed, in flight or "
                            + "dead, or that was acked within the idempotency window, is a no-op. Generated when "
                            + "absent and set on the exchange after the send. Consumer: the message id.",
              javaType = "String")
    String MESSAGE_ID = "CamelReliableRedisMessageId";

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
              description = "The operation: enqueue (default); stats (the body becomes a Map with ready, inflight, "
                            + "delayed and dead); redrive (move dead letters back to ready, the body becomes the "
                            + "count moved); purge (remove every ready, delayed and dead message, the body becomes "
                            + "the count removed).",
              javaType = "String", enums = "enqueue,stats,redrive,purge")
    String OPERATION = "CamelReliableRedisOperation";

    @Metadata(label = "producer", description = "redrive: the most dead letters to move (default: all).",
              javaType = "Long")
    String LIMIT = "CamelReliableRedisLimit";

    @Metadata(label = "consumer",
              description = "On dead letters: why the message was dead-lettered, the exception class and message or "
                            + "'lease expired'.",
              javaType = "String")
    String FAILURE = "CamelReliableRedisFailure";
}
