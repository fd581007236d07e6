package dev.reliableredis.queue.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Estimates of the Redis server clocks, one per node, for the deadlines of the calls that store messages: a call
 * that Redis runs after its deadline stores nothing (see includes/time.lua), so that a send whose caller gave up on
 * it at {@code commandTimeout} does not land later. An estimate is measured with one {@code TIME} on first use, and
 * again when it is older than {@link #MAX_AGE} or after {@link #forgetAll} (a call failed on its connection or timed
 * out): not per call. It is kept against {@link System#nanoTime}, so a step of the local wall clock does not move it.
 * One measured over a long round trip (more than a tenth of the timeout: Redis paused, a busy client) may be off by
 * half of it, more than a deadline's margin allows for: it serves the calls that waited for it, and the next call
 * measures again.
 */
public final class ServerClock {

    /** How long an estimate is used before it is measured again: clocks drift, and a failover moves the server. */
    static final Duration MAX_AGE = Duration.ofMinutes(1);

    private final Duration commandTimeout;
    private final ConcurrentMap<Object, CompletableFuture<Estimate>> estimates = new ConcurrentHashMap<>();

    public ServerClock(Duration commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    /**
     * The deadline, server time in ms, of a call to the node that starts now: a margin before the command timeout
     * runs out, so that a call that ran just in time still answers in time. Waits for a {@code TIME} on the node
     * (through {@code time}) only when there is no estimate of its clock yet, or an old one.
     */
    public CompletableFuture<Long> deadline(Object node, Supplier<CompletionStage<List<byte[]>>> time) {
        long start = System.nanoTime();
        CompletableFuture<Estimate> known = estimates.get(node);
        if (known == null || known.isCompletedExceptionally()
            || known.isDone() && start - known.join().measuredAt > MAX_AGE.toNanos()) {
            known = measure(node, known, time);
        }
        return known.thenApply(estimate -> estimate.deadline(start, commandTimeout));
    }

    /** Measures every clock again before its next use: a lost connection or a timeout may mean another server. */
    public void forgetAll() {
        estimates.clear();
    }

    /** One measurement at a time per node: the calls that find the estimate missing meanwhile wait for it. */
    private CompletableFuture<Estimate> measure(Object node, CompletableFuture<Estimate> seen,
            Supplier<CompletionStage<List<byte[]>>> time) {
        CompletableFuture<Estimate> fresh = new CompletableFuture<>();
        CompletableFuture<Estimate> current = estimates.compute(node, (k, old) -> old == null || old == seen
                ? fresh : old);
        if (current != fresh) {
            return current;
        }
        long sent = System.nanoTime();
        try {
            time.get().whenComplete((reply, error) -> {
                if (error != null) {
                    estimates.remove(node, fresh);
                    fresh.completeExceptionally(error);
                } else {
                    Estimate estimate = Estimate.of(reply, sent, System.nanoTime());
                    if (!estimate.keepable(commandTimeout)) {
                        estimates.remove(node, fresh);
                    }
                    fresh.complete(estimate);
                }
            });
        } catch (RuntimeException e) {
            estimates.remove(node, fresh);
            fresh.completeExceptionally(e);
        }
        return fresh;
    }

    /**
     * @param offsetMillis    the server's time in ms minus {@link System#nanoTime} in ms, at the middle of the
     *                        measurement
     * @param roundTripMillis how long the measurement took: twice the error of the offset at most
     * @param measuredAt      {@link System#nanoTime} when it was measured
     */
    record Estimate(long offsetMillis, long roundTripMillis, long measuredAt) {

        static Estimate of(List<byte[]> time, long sent, long received) {
            long serverMicros = Long.parseLong(text(time.get(0))) * 1_000_000 + Long.parseLong(text(time.get(1)));
            long middle = sent + (received - sent) / 2;
            return new Estimate(serverMicros / 1000 - TimeUnit.NANOSECONDS.toMillis(middle),
                    TimeUnit.NANOSECONDS.toMillis(received - sent) + 1, received);
        }

        /**
         * The margin is the round trip (half of it the estimate's error, half the reply's way back) and a tenth of
         * the timeout (the I/O thread, a collection pause); at most half the timeout, so a slow network still
         * leaves a call time to run.
         */
        long deadline(long start, Duration commandTimeout) {
            long timeout = commandTimeout.toMillis();
            long margin = Math.min(roundTripMillis + timeout / 10, timeout / 2);
            return TimeUnit.NANOSECONDS.toMillis(start) + offsetMillis + timeout - margin;
        }

        /**
         * Whether it may serve later calls: with a round trip of at most a tenth of the timeout the deadline's margin
         * stays below its cap of half the timeout, so it covers the estimate's error (up to half the round trip).
         */
        boolean keepable(Duration commandTimeout) {
            return roundTripMillis <= commandTimeout.toMillis() / 10;
        }

        private static String text(byte[] bytes) {
            return new String(bytes, StandardCharsets.US_ASCII);
        }
    }
}
