package dev.reliableredis.console;

import java.time.Duration;

import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;

/**
 * The component's own queue objects for the dashboard's rows, made as an endpoint makes them ({@link Queues}):
 * counts, redrive and purge are the engine's scripts, never a second implementation here; a sharded queue's are
 * its shards' sums.
 */
final class EngineQueues {

    /** The component's default group: what a consumer would create, and what counts a stream without groups. */
    static final String DEFAULT_GROUP = "camel";
    /** Never reads: stats, browse, redrive and purge act on the group, not on a consumer of it. */
    private static final String CONSUMER = "dashboard";

    private final RedisGateway redis;
    private final String prefix;
    private final QueueSettings settings;

    /**
     * @param visibilityTimeout the consumers' visibilityTimeout: list mode keeps a lease's deadline, and its age is
     *                          that deadline less the timeout
     */
    EngineQueues(RedisGateway redis, String prefix, Duration visibilityTimeout) {
        this.redis = redis;
        this.prefix = prefix;
        this.settings = QueueSettings.builder().visibilityTimeout(visibilityTimeout).build();
    }

    /**
     * The engine's queue for a row, refused (IllegalStateException) where its layout version is not the engine's,
     * as an endpoint refuses it (see {@code ShardCount}), before anything reads its keys. Of the consumers'
     * settings, only the visibility timeout plays a part in stats, browse, redrive and purge. Stream mode assumes
     * the component's defaults where they do: acked entries deleted (deleteAfterAck) for counting, and no MAXLEN on
     * the entries a redrive adds.
     */
    ReliableQueue of(QueueRef ref) {
        String group = ref.group() != null ? ref.group() : DEFAULT_GROUP;
        StreamOptions options = ref.mode() == QueueMode.LIST ? null
                : new StreamOptions(null, null, group, "0", CONSUMER, 0, true);
        Queues.shardCount(redis, prefix, ref.name(), ref.shards(), options).requireLayout();
        return Queues.open(redis, prefix, ref.name(), ref.shards(), options, settings);
    }
}
