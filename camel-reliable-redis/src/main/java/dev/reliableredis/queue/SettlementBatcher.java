package dev.reliableredis.queue;

import java.util.concurrent.CompletableFuture;

/**
 * Groups the acks and nacks of concurrent deliveries into script calls ({@link CallBatcher}): while calls are on
 * their way to Redis, the next batch accumulates. Every delivery in a batch is still checked on its own lease token.
 */
public final class SettlementBatcher {

    private final CallBatcher<Lease, Settled> acks;
    private final CallBatcher<Failure, Settled> nacks;

    /**
     * @param maxBatch   most deliveries in one script call (bounds the time Redis is busy with it)
     * @param roundTrips takes the duration of each ack and nack call
     */
    public SettlementBatcher(ReliableQueue queue, int maxBatch, RoundTrips roundTrips) {
        this.acks = new CallBatcher<>(RoundTrips.timed("ack", roundTrips, queue::ackAsync), maxBatch);
        this.nacks = new CallBatcher<>(RoundTrips.timed("nack", roundTrips, queue::nackAsync), maxBatch);
    }

    public CompletableFuture<Settled> ack(Lease lease) {
        return acks.submit(lease);
    }

    public CompletableFuture<Settled> nack(Failure failure) {
        return nacks.submit(failure);
    }
}
