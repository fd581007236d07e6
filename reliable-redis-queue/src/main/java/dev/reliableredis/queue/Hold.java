package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * Why a claim took nothing, when its claimant must wait for something other than an arrival before it claims again,
 * and what it waits for:
 * <ul>
 * <li>{@link Reason#PAUSED}: a blocking XREAD of the queue's resumed stream after its last resume ({@code after}),
 * at most {@code leftMillis}, so that a resume that lands before the wait begins ends it at once, and every waiting
 * consumer wakes, not one;</li>
 * <li>{@link Reason#LIMITED}: at the rate limit, {@code leftMillis} exactly, as the claim script said, on the
 * claimant's own thread ({@link WakeableSleep});</li>
 * <li>{@link Reason#CAPPED}: stream mode at the group's maxInflight, a blocking XREAD of the group's freed stream
 * after its last entry ({@code after}), which the next settlement adds;</li>
 * <li>{@link Reason#CAUGHT_UP}: stream mode under a rate limit or a cap, a blocking XREAD of the queue's stream
 * after the group's last delivered entry ({@code after}): an XREAD takes nothing, so the entry it sees is claimed by
 * the next claim, under the limit and the cap.</li>
 * </ul>
 *
 * @param reason     what holds the claim back
 * @param leftMillis ms until the pause ends by itself or the rate limit allows a message (Redis time); -1 while a
 *                   pause lasts until resumed, at the cap and while caught up
 * @param after      the entry id the wait reads after ({@code 0-0} for a queue never resumed); unused at the limit
 */
public record Hold(Reason reason, long leftMillis, String after) {

    public enum Reason {
        PAUSED, LIMITED, CAPPED, CAUGHT_UP
    }

    /**
     * The hold a claim script's reply tells of, or null when the reply is a claim's (see includes/pause.lua,
     * includes/rate.lua and stream/claim.lua).
     */
    public static Hold ofReply(List<Object> rows) {
        if (rows.size() == 3 && rows.get(0) instanceof byte[] first) {
            Reason reason = switch (text(first)) {
                case "paused" -> Reason.PAUSED;
                case "limited" -> Reason.LIMITED;
                case "capped" -> Reason.CAPPED;
                case "caught-up" -> Reason.CAUGHT_UP;
                default -> null;
            };
            if (reason != null) {
                return new Hold(reason, (Long) rows.get(1), text(rows.get(2)));
            }
        }
        return null;
    }

    /** How long to wait: until the hold ends by itself, at most {@code limit}, at least 1 ms. */
    public Duration waitAtMost(Duration limit) {
        long millis = leftMillis < 0 ? limit.toMillis() : Math.min(leftMillis, limit.toMillis());
        return Duration.ofMillis(Math.max(1, millis));
    }

    /** Waits on {@code redis} for an entry of {@code stream} after {@link #after}, at most {@code block}. */
    public CompletableFuture<?> await(RedisClusterAsyncCommands<byte[], byte[]> redis, byte[] stream, Duration block) {
        return redis.xread(XReadArgs.Builder.count(1).block(block), XReadArgs.StreamOffset.from(stream, after))
                .toCompletableFuture();
    }
}
