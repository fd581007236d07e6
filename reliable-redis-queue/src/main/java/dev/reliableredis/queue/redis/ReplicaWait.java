package dev.reliableredis.queue.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import dev.reliableredis.queue.internal.RedisErrors;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * Makes a write wait until replicas have it: {@code WAIT <replicas> <timeout>} on the command connection after the
 * write's reply; or, with {@link #appendOnlyFiles}, {@code WAITAOF 1 <replicas> <timeout>} (Redis 7.2 and newer),
 * until the master's append-only file and as many replicas' files have it on disk. Either covers every write the
 * connection sent before it, so one wait after a batched script call covers the whole batch (and whatever else the
 * connection wrote meanwhile).
 *
 * <p>The wait goes out after the reply rather than pipelined behind the script call, so that it also covers the EVAL a
 * {@code NOSCRIPT} reply makes the script send, which is what a promoted replica answers first (it has no script
 * cache). The reply completes on Lettuce's I/O thread, which writes the wait before it can see the connection drop,
 * so the wait goes to the server that ran the script. It holds the connection's later commands on the server
 * until it returns: while replicas lag, every call on the connection waits up to the timeout.
 */
public final class ReplicaWait {

    /** No waiting: replication stays asynchronous. */
    public static final ReplicaWait OFF = new ReplicaWait(null, 0, Duration.ZERO, false);

    private final RedisGateway redis;
    private final int replicas;
    private final Duration timeout;
    private final boolean appendOnlyFiles;

    private ReplicaWait(RedisGateway redis, int replicas, Duration timeout, boolean appendOnlyFiles) {
        this.redis = redis;
        this.replicas = replicas;
        this.timeout = timeout;
        this.appendOnlyFiles = appendOnlyFiles;
    }

    /**
     * WAIT for replicas.
     *
     * @param replicas how many replicas must acknowledge (the option waitReplicas); 0 is {@link #OFF}
     * @param timeout  how long Redis waits for them (waitTimeout); more than 0, since WAIT 0 waits for ever
     */
    public static ReplicaWait replicas(RedisGateway redis, int replicas, Duration timeout) {
        return replicas > 0 ? new ReplicaWait(redis, replicas, timeout, false) : OFF;
    }

    /**
     * WAITAOF: the master's append-only file and, when replicas is more than 0, as many replicas' files.
     *
     * @param replicas how many replicas' files must have the write (the option waitReplicas); 0 for the master's only
     * @param timeout  how long Redis waits for them (waitTimeout); more than 0, since WAITAOF 0 waits for ever
     */
    public static ReplicaWait appendOnlyFiles(RedisGateway redis, int replicas, Duration timeout) {
        return new ReplicaWait(redis, replicas, timeout, true);
    }

    public boolean isOn() {
        return replicas > 0 || appendOnlyFiles;
    }

    /**
     * The write's result, once {@code WAIT} (or {@code WAITAOF}) has come back after it. When fewer replicas (or
     * files) than wanted acknowledged within the timeout, or the wait itself failed (the connection dropped after the write's reply), {@code notReplicated}
     * gets the write's result and why it is not known to be replicated; what it throws fails the result. A write that
     * failed is not waited for. Off, the write's result as it is.
     */
    public <R> CompletableFuture<R> after(CompletableFuture<R> write, BiConsumer<R, String> notReplicated) {
        if (!isOn()) {
            return write;
        }
        return write.thenCompose(result -> (appendOnlyFiles ? waitForFiles() : waitForReplicas())
                .handle((shortOf, error) -> {
                    if (error != null) {
                        notReplicated.accept(result, failure(error instanceof CompletionException
                                ? error.getCause() : error));
                    } else if (shortOf != null) {
                        notReplicated.accept(result, shortOf);
                    }
                    return result;
                }));
    }

    private String failure(Throwable error) {
        String reason = RedisErrors.describe(error);
        if (appendOnlyFiles && reason.contains("unknown command")) {
            return "WAITAOF (waitAof=true) needs Redis 7.2 or newer: " + reason;
        }
        return (appendOnlyFiles ? "WAITAOF (waitAof=true" : "WAIT (waitReplicas=" + replicas) + ") failed: " + reason;
    }

    /** Null when enough replicas acknowledged, else why not. */
    private CompletableFuture<String> waitForReplicas() {
        return call(() -> redis.asyncCommands().waitForReplication(replicas, timeout.toMillis()))
                .thenApply(acknowledged -> acknowledged >= replicas ? null
                        : acknowledged + " of the " + replicas + " replicas that waitReplicas=" + replicas
                          + " asks for acknowledged it within waitTimeout (" + timeout.toMillis() + " ms)");
    }

    /** Null when the master's file and enough replicas' files have the write, else why not. */
    private CompletableFuture<String> waitForFiles() {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(1).add(replicas)
                .add(timeout.toMillis());
        return call(() -> redis.asyncCommands().dispatch(WaitAof.WAITAOF, new ArrayOutput<>(ByteArrayCodec.INSTANCE),
                args)).thenApply(counts -> {
                    long local = (Long) counts.get(0);
                    long remote = (Long) counts.get(1);
                    if (local >= 1 && remote >= replicas) {
                        return null;
                    }
                    return "WAITAOF (waitAof=true) within waitTimeout (" + timeout.toMillis() + " ms): "
                           + (local < 1 ? "the master's append-only file does not have it on disk yet" : "")
                           + (local < 1 && remote < replicas ? ", and " : "")
                           + (remote < replicas ? remote + " of the " + replicas + " replicas that waitReplicas="
                                                  + replicas + " asks for have it in their append-only files" : "");
                });
    }

    private static <T> CompletableFuture<T> call(Supplier<RedisFuture<T>> command) {
        try {
            return command.get().toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Lettuce 6.8 has no WAITAOF of its own. */
    private enum WaitAof implements ProtocolKeyword {
        WAITAOF;

        @Override
        public byte[] getBytes() {
            return name().getBytes(StandardCharsets.US_ASCII);
        }
    }
}
