package dev.reliableredis.queue.calls;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.NotStoredException;
import dev.reliableredis.queue.OutcomeUnknownException;
import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.internal.HeaderCodec;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.internal.ScriptSettings;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardCount;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;

/** Runs the script calls of one queue; a Redis failure becomes a QueueException naming the queue and the operation. */
public final class QueueCalls {

    private static final Logger LOG = LoggerFactory.getLogger(QueueCalls.class);

    private final RedisGateway redis;
    private final String queue;

    public QueueCalls(RedisGateway redis, String queue) {
        this.redis = redis;
        this.queue = queue;
    }

    public <T> T run(String operation, LuaScript script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        return RedisGateway.await(runAsync(null, operation, script, type, keys, args));
    }

    public <T> T run(String operation, LuaScript script, ScriptOutputType type, byte[][] keys, List<byte[]> args) {
        return run(operation, script, type, keys, args.toArray(byte[][]::new));
    }

    public <T> T run(String operation, Supplier<T> redisCall) {
        return QueueException.wrap(queue, operation, redisCall);
    }

    /**
     * As {@link #run}, without waiting for Redis, on the given connection's commands, or on the queue's command
     * connection when null, bounded by the command timeout ({@link RedisGateway#bounded}). A call on a connection of
     * its own is not bounded here: it may wait behind a blocking read, and its caller bounds the two.
     */
    public <T> CompletableFuture<T> runAsync(RedisClusterAsyncCommands<byte[], byte[]> on, String operation,
            LuaScript script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        return async(operation, () -> on != null ? script.<T>run(on, type, keys, args)
                : redis.bounded(script.<T>run(redis.asyncCommands(), type, keys, args)));
    }

    /** Starts one Redis call of a queue operation; a Redis failure completes the result with a QueueException. */
    public <T> CompletableFuture<T> async(String operation, Supplier<? extends CompletionStage<T>> redisCall) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            redisCall.get().whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(QueueException.of(queue, operation, error));
                }
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(QueueException.of(queue, operation, e));
        }
        return result;
    }

    /** Runs an enqueue script whose reply is one code per message, 1 when it was stored. */
    public CompletableFuture<List<Boolean>> enqueue(LuaScript script, byte[][] keys, byte[]... args) {
        return this.<List<Long>>store("enqueue", script, ScriptOutputType.MULTI, keys, args)
                .thenApply(codes -> codes.stream().map(code -> code == 1L).toList());
    }

    /**
     * Runs a script that stores messages (an enqueue, a hand-off), on the queue's command connection, with its
     * deadline on the server clock as the last argument ({@link RedisGateway#deadline}). Its failure says whether
     * the messages are stored: a {@link NotStoredException} when Redis refused the call, ran it after its deadline,
     * or did not answer within the command timeout (a call it runs later is past its deadline), or the call never
     * went out; else, and whenever a connection was lost while the call was under way (Lettuce sends it again once
     * it reconnects, so that it may have run before), an {@link OutcomeUnknownException}.
     */
    public <T> CompletableFuture<T> store(String operation, LuaScript script, ScriptOutputType type, byte[][] keys,
            byte[]... args) {
        CompletableFuture<T> result = new CompletableFuture<>();
        long disconnects = redis.disconnects();
        CompletableFuture<Long> deadline;
        try {
            deadline = redis.deadline(keys[0]);
        } catch (RuntimeException e) {
            result.completeExceptionally(sendFailure(operation, e, false, false));
            return result;
        }
        deadline.whenComplete((at, unmeasured) -> {
            if (unmeasured != null) {
                result.completeExceptionally(sendFailure(operation, unmeasured, false, false));
                return;
            }
            byte[][] withDeadline = Arrays.copyOf(args, args.length + 1);
            withDeadline[args.length] = bytes(at);
            CompletionStage<T> call;
            try {
                call = redis.bounded(script.<T>run(redis.asyncCommands(), type, keys, withDeadline));
            } catch (RuntimeException e) {
                result.completeExceptionally(sendFailure(operation, e, false, false));
                return;
            }
            call.whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(sendFailure(operation, error, true, redis.disconnects() != disconnects));
                }
            });
        });
        return result;
    }

    private RuntimeException sendFailure(String operation, Throwable error, boolean sent, boolean connectionLost) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        IllegalStateException staleShardCount = cause instanceof RedisCommandExecutionException
                ? ShardCount.refusal(cause.getMessage()) : null;
        if (staleShardCount != null) {
            return staleShardCount;
        }
        if (!(cause instanceof RedisCommandExecutionException)) {
            redis.clocksSuspect();
        }
        if (sent && connectionLost) {
            return new OutcomeUnknownException(queue, operation, cause);
        }
        if (!sent || cause instanceof RedisCommandExecutionException || cause instanceof RedisConnectionException) {
            return new NotStoredException(queue, operation, cause);
        }
        if (cause instanceof RedisCommandTimeoutException) {
            return new NotStoredException(queue, operation, QueueException.describe(cause) + "; the call's deadline "
                    + "on the Redis server clock has passed, so Redis stores nothing if it runs it later", cause);
        }
        return new OutcomeUnknownException(queue, operation, cause);
    }

    /** Runs a settling script whose reply is one code per delivery, and says what each code means. */
    public CompletableFuture<List<Settled>> settle(String operation, LuaScript script, byte[][] keys,
            List<byte[]> args, LongFunction<Settled> meaning) {
        return this.<List<Long>>runAsync(null, operation, script, ScriptOutputType.MULTI, keys,
                args.toArray(byte[][]::new)).thenApply(codes -> codes.stream().map(meaning::apply).toList());
    }

    /** Refuses a browse limit outside 1..1000, naming the limit and the queue. */
    public void checkBrowseLimit(int limit) {
        if (limit < 1 || limit > ReliableQueue.MAX_BROWSE) {
            throw new IllegalArgumentException("A browse reads 1 to " + ReliableQueue.MAX_BROWSE + " messages, not " + limit
                    + " (queue '" + queue + "')");
        }
    }

    /** A pause's duration in ms, 0 for until resumed; a negative or too long one is refused, naming the queue. */
    public long pauseMillis(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("A pause lasts 0 (until resumed) or more ms, not " + duration.toMillis()
                    + " (queue '" + queue + "')");
        }
        if (duration.compareTo(ReliableQueue.MAX_PAUSE) > 0) {
            throw new IllegalArgumentException("A timed pause lasts at most " + ReliableQueue.MAX_PAUSE.toMillis()
                    + " ms (14 days; 0 pauses until resumed), not " + duration + " (queue '" + queue + "')");
        }
        return duration.toMillis();
    }

    /** The travelling headers of a delivered message; headers that do not parse are dropped with a WARN. */
    public Map<String, Object> headers(String messageId, String json) {
        try {
            return HeaderCodec.decode(json);
        } catch (IllegalArgumentException e) {
            LOG.warn("Message '{}' of queue '{}' is delivered without its headers: {}", OneLine.of(messageId), queue,
                    OneLine.of(e.getMessage()));
            return Map.of();
        }
    }

    /**
     * The retry policy the nack scripts' settings hold: deliveries before dead-lettering, retry delay, multiplier and
     * cap. A failed dead letter is never dead-lettered again; it is offered again after retryDelay.
     */
    public static ScriptSettings retryPolicy(QueueSettings settings, boolean deadLetters) {
        long retryDelay = settings.retryDelay().toMillis();
        return ScriptSettings.of().with("maxDeliveries", deadLetters ? 0 : settings.maxDeliveries())
                .with("retryDelay", retryDelay)
                .with("multiplier", deadLetters ? 1.0 : settings.retryBackoffMultiplier())
                .with("maxRetryDelay", deadLetters ? retryDelay : settings.maxRetryDelay().toMillis());
    }

    /** Adds ref, token and reason of every failure, in order. */
    public static void addFailures(List<byte[]> args, List<Failure> failures) {
        for (Failure failure : failures) {
            args.add(bytes(failure.lease().ref()));
            args.add(bytes(failure.lease().token()));
            args.add(bytes(failure.reason()));
            args.add(bytes(failure.retryAfterMillis()));
        }
    }

    /** Adds ref and token of every lease, in order. */
    public static void addLeases(List<byte[]> args, List<Lease> leases) {
        for (Lease lease : leases) {
            args.add(bytes(lease.ref()));
            args.add(bytes(lease.token()));
        }
    }

    public static byte[][] keys(byte[]... keys) {
        return keys;
    }
}
