package dev.reliableredis.queue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import dev.reliableredis.queue.internal.AclRefusal;
import dev.reliableredis.queue.internal.RedisErrors;
import dev.reliableredis.queue.sharded.ShardCount;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;

/** A queue operation that Redis did not carry out; the message names the queue and the operation. */
public class QueueException extends RuntimeException {

    public QueueException(String queue, String operation, Throwable cause) {
        super(operation + " on queue '" + queue + "' failed: " + RedisErrors.describe(cause), cause);
    }

    /** A queue operation that did not succeed for a reason of the component's own, not a Redis error. */
    public QueueException(String queue, String operation, String reason) {
        super(operation + " on queue '" + queue + "' failed: " + reason);
    }

    /** Runs one Redis call of a queue operation; a Redis failure becomes a QueueException naming both. */
    public static <T> T wrap(String queue, String operation, Supplier<T> redisCall) {
        try {
            return redisCall.get();
        } catch (RedisException e) {
            throw new QueueException(queue, operation, e);
        }
    }

    /**
     * The failure of an asynchronous call of a queue operation: a Redis failure, or a call cancelled because its
     * connection closed, becomes a QueueException naming both; a send or claim refused for a stale shard count
     * becomes the IllegalStateException of {@link ShardCount#refusal}; anything else stays as it is.
     */
    public static RuntimeException of(String queue, String operation, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        IllegalStateException staleShardCount = cause instanceof RedisCommandExecutionException
                ? ShardCount.refusal(cause.getMessage()) : null;
        if (staleShardCount != null) {
            return staleShardCount;
        }
        if (cause instanceof RedisException || cause instanceof CancellationException
            || !(cause instanceof RuntimeException)) {
            return new QueueException(queue, operation, cause);
        }
        return (RuntimeException) cause;
    }

    /** A failure of Redis or of the engine in one line: what Redis said, or the exception's class and message. */
    public static String describe(Throwable error) {
        return RedisErrors.describe(error);
    }

    /**
     * Whether the failure is a refusal that no retry of the same call cures: an ACL refusal, a key of the wrong type,
     * keys in different slots, an error of the script. A timeout, a lost connection, a server loading or busy, a
     * failover under way are not: a retry may land.
     */
    public static boolean isRefusedForGood(Throwable error) {
        return RedisErrors.refusedForGood(error);
    }

    /** Whether a Redis error message is an ACL refusal, in any of the words Redis 6.2 to 8 use. */
    public static boolean isAclRefusal(String redisError) {
        return AclRefusal.is(redisError);
    }
}
