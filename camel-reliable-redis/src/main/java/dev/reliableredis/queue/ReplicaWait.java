package dev.reliableredis.queue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * Makes a write wait until replicas have it: {@code WAIT <replicas> <timeout>} on the command connection after the
 * write's reply. WAIT covers every write the connection sent before it, so one WAIT after a batched script call
 * covers the whole batch (and whatever else the connection wrote meanwhile).
 *
 * <p>WAIT goes out after the reply rather than pipelined behind the script call, so that it also covers the EVAL a
 * {@code NOSCRIPT} reply makes the script send, which is what a promoted replica answers first (it has no script
 * cache). The reply completes on Lettuce's I/O thread, which writes the WAIT before it can see the connection drop,
 * so the WAIT goes to the server that ran the script. WAIT holds the connection's later commands on the server
 * until it returns: while replicas lag, every call on the connection waits up to the timeout.
 */
public final class ReplicaWait {

    /** No waiting: replication stays asynchronous. */
    public static final ReplicaWait OFF = new ReplicaWait(null, 0, Duration.ZERO);

    private final RedisGateway redis;
    private final int replicas;
    private final Duration timeout;

    /**
     * @param replicas how many replicas must acknowledge (the option waitReplicas); 0 is {@link #OFF}
     * @param timeout  how long Redis waits for them (waitTimeout); more than 0, since WAIT 0 waits for ever
     */
    public ReplicaWait(RedisGateway redis, int replicas, Duration timeout) {
        this.redis = redis;
        this.replicas = replicas;
        this.timeout = timeout;
    }

    public boolean isOn() {
        return replicas > 0;
    }

    /**
     * The write's result, once {@code WAIT} has come back after it. When fewer replicas than wanted acknowledged
     * within the timeout, or WAIT itself failed (the connection dropped after the write's reply), {@code notReplicated}
     * gets the write's result and why it is not known to be replicated; what it throws fails the result. A write that
     * failed is not waited for. Off, the write's result as it is.
     */
    public <R> CompletableFuture<R> after(CompletableFuture<R> write, BiConsumer<R, String> notReplicated) {
        if (!isOn()) {
            return write;
        }
        return write.thenCompose(result -> waitForReplicas().handle((acknowledged, error) -> {
            if (error != null) {
                notReplicated.accept(result, "WAIT for " + replicas + " replicas (waitReplicas) failed: "
                        + RedisErrors.describe(error instanceof CompletionException ? error.getCause() : error));
            } else if (acknowledged < replicas) {
                notReplicated.accept(result, acknowledged + " of the " + replicas + " replicas that waitReplicas="
                        + replicas + " asks for acknowledged it within waitTimeout (" + timeout.toMillis() + " ms)");
            }
            return result;
        }));
    }

    private CompletableFuture<Long> waitForReplicas() {
        try {
            return redis.asyncCommands().waitForReplication(replicas, timeout.toMillis()).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
