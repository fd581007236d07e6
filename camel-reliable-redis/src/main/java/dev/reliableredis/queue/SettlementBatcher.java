package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Groups the acks and nacks of concurrent deliveries into one script call each: while one batch is on its
 * way to Redis, the next accumulates. Every delivery in a batch is still checked on its own lease token.
 */
public final class SettlementBatcher {

    private record Pending(Lease lease, String failureReason, CompletableFuture<Settled> result) {
        boolean isAck() {
            return failureReason == null;
        }
    }

    private final ReliableQueue queue;
    private final Executor executor;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /**
     * @param executor runs the sends, one at a time
     * @param maxBatch most deliveries in one script call (bounds the time Redis is busy with it)
     */
    public SettlementBatcher(ReliableQueue queue, Executor executor, int maxBatch) {
        this.queue = queue;
        this.executor = executor;
        this.maxBatch = maxBatch;
    }

    public CompletableFuture<Settled> ack(Lease lease) {
        return submit(new Pending(lease, null, new CompletableFuture<>()));
    }

    public CompletableFuture<Settled> nack(Failure failure) {
        return submit(new Pending(failure.lease(), failure.reason(), new CompletableFuture<>()));
    }

    private CompletableFuture<Settled> submit(Pending settlement) {
        pending.add(settlement);
        if (draining.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                drain();
            }
        }
        return settlement.result();
    }

    private void drain() {
        do {
            for (List<Pending> batch = take(); !batch.isEmpty(); batch = take()) {
                send(batch);
            }
            draining.set(false);
        } while (!pending.isEmpty() && draining.compareAndSet(false, true));
    }

    private List<Pending> take() {
        List<Pending> batch = new ArrayList<>();
        Pending next;
        while (batch.size() < maxBatch && (next = pending.poll()) != null) {
            batch.add(next);
        }
        return batch;
    }

    private void send(List<Pending> batch) {
        List<Pending> acks = new ArrayList<>();
        List<Pending> nacks = new ArrayList<>();
        for (Pending p : batch) {
            (p.isAck() ? acks : nacks).add(p);
        }
        try {
            if (!acks.isEmpty()) {
                complete(acks, queue.ack(acks.stream().map(Pending::lease).toList()));
            }
            if (!nacks.isEmpty()) {
                complete(nacks, queue.nack(nacks.stream().map(p -> new Failure(p.lease(), p.failureReason())).toList()));
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.result().completeExceptionally(e));
        }
    }

    private static void complete(List<Pending> settlements, List<Settled> results) {
        for (int i = 0; i < settlements.size(); i++) {
            settlements.get(i).result().complete(results.get(i));
        }
    }
}
