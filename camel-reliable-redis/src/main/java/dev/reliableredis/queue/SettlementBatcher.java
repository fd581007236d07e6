package dev.reliableredis.queue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Groups the acks and nacks of concurrent deliveries into one script call each: while one batch is on its
 * way to Redis, the next accumulates. Every delivery in a batch is still checked on its own lease token.
 */
public final class SettlementBatcher {

    private final CallBatcher<Lease, Settled> acks;
    private final CallBatcher<Failure, Settled> nacks;

    /**
     * @param executor runs the sends, one at a time
     * @param maxBatch most deliveries in one script call (bounds the time Redis is busy with it)
     */
    public SettlementBatcher(ReliableQueue queue, Executor executor, int maxBatch) {
        this.acks = new CallBatcher<>(queue::ack, executor, maxBatch);
        this.nacks = new CallBatcher<>(queue::nack, executor, maxBatch);
    }

    public CompletableFuture<Settled> ack(Lease lease) {
        return acks.submit(lease);
    }

    public CompletableFuture<Settled> nack(Failure failure) {
        return nacks.submit(failure);
    }
}
