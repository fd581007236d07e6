package dev.reliableredis.queue.runtime;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.batch.RequestBatcher;
import dev.reliableredis.queue.redis.ReplicaWait;

/**
 * Groups the acks and nacks of concurrent deliveries into script calls (the queue's {@link RequestBatcher}s): while
 * calls are on their way to Redis, the next batch accumulates. Every delivery in a batch is still checked on its own
 * lease token. With waitReplicas, the next ack call goes out once replicas have the one before
 * ({@link ReplicaWait}); nacks are not waited for, since a lost nack only delivers its message again, as a failed
 * one does.
 */
public final class SettlementBatcher {

    private final RequestBatcher<Lease, Settled> acks;
    private final RequestBatcher<Failure, Settled> nacks;
    private final ReliableQueue queue;
    private final RoundTrips roundTrips;
    private final ReplicaWait replicas;
    private final BiConsumer<List<Settled>, String> unreplicatedAcks;

    /**
     * @param maxBatch         most deliveries in one script call (bounds the time Redis is busy with it)
     * @param roundTrips       takes the duration of each ack and nack call
     * @param unreplicatedAcks gets the results of an ack call that is done on the master but not known to be
     *                         replicated, and why; the acks still count as done
     */
    public SettlementBatcher(ReliableQueue queue, int maxBatch, RoundTrips roundTrips, ReplicaWait replicas,
            BiConsumer<List<Settled>, String> unreplicatedAcks) {
        this.acks = queue.ackBatcher(call -> RoundTrips.timed("ack", roundTrips,
                leases -> replicas.after(call.apply(leases).toCompletableFuture(), unreplicatedAcks)), maxBatch);
        this.nacks = queue.nackBatcher(call -> RoundTrips.timed("nack", roundTrips, call), maxBatch);
        this.queue = queue;
        this.roundTrips = roundTrips;
        this.replicas = replicas;
        this.unreplicatedAcks = unreplicatedAcks;
    }

    public CompletableFuture<Settled> ack(Lease lease) {
        return acks.submit(lease);
    }

    public CompletableFuture<Settled> nack(Failure failure) {
        return nacks.submit(failure);
    }

    /**
     * An ack that enqueues what its exchange sent, and answers a request when {@code to} is not null
     * ({@link ReliableQueue#handOffAsync(Lease, List, ReplyTo, Reply)}): a call of its own, since its keys and
     * arguments are its own; with waitReplicas, waited for as an ack call is.
     */
    public CompletableFuture<Settled> handOff(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        long start = System.nanoTime();
        CompletableFuture<Settled> call;
        try {
            call = queue.handOffAsync(lease, handOffs, to, reply);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return replicas.after(call.whenComplete((result, error) -> {
            if (error == null) {
                roundTrips.record("handoff", System.nanoTime() - start);
            }
        }), (result, why) -> unreplicatedAcks.accept(List.of(result), why));
    }

    /** The error reply of a request that was dead-lettered, in a call of its own. */
    public CompletableFuture<Void> reply(ReplyTo to, Reply reply) {
        return queue.replyAsync(to, reply);
    }
}
