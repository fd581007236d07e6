package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import static dev.reliableredis.queue.RedisBytes.text;

/**
 * What a claim found when its queue was paused: how long the pause has left, and the last resume before it. The
 * claimant waits for the next resume with a blocking XREAD of the queue's resumed stream after that entry, so that
 * a resume that lands before the wait begins ends it at once, and every waiting consumer wakes, not one.
 *
 * @param leftMillis ms until the pause ends by itself (Redis time); -1 while it lasts until resumed
 * @param lastResume the resumed stream's last entry id, {@code 0-0} when the queue was never resumed
 */
public record Pause(long leftMillis, String lastResume) {

    private static final String PAUSED = "paused";

    /** The pause a claim script's reply tells of, or null when the reply is a claim's (see includes/pause.lua). */
    public static Pause ofReply(List<Object> rows) {
        return rows.size() == 3 && rows.get(0) instanceof byte[] first && PAUSED.equals(text(first))
                ? new Pause((Long) rows.get(1), text(rows.get(2))) : null;
    }

    /** How long to wait for a resume: until the pause ends by itself, at most {@code limit}, at least 1 ms. */
    public Duration waitAtMost(Duration limit) {
        long millis = leftMillis < 0 ? limit.toMillis() : Math.min(leftMillis, limit.toMillis());
        return Duration.ofMillis(Math.max(1, millis));
    }

    /** Waits on {@code redis} for the resume after {@link #lastResume}, at most {@code block}. */
    public CompletableFuture<?> awaitResume(RedisClusterAsyncCommands<byte[], byte[]> redis, byte[] resumedKey,
            Duration block) {
        return redis.xread(XReadArgs.Builder.count(1).block(block),
                XReadArgs.StreamOffset.from(resumedKey, lastResume)).toCompletableFuture();
    }
}
