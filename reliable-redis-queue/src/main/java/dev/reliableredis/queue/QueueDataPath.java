package dev.reliableredis.queue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.reliableredis.queue.batch.CallBatcher;
import dev.reliableredis.queue.batch.RequestBatcher;
import dev.reliableredis.queue.redis.RedisGateway;

/**
 * A queue's data path: enqueue, claim under a lease, ack, nack, extend, release and hand off, each one atomic
 * script call timed by the Redis server clock, and the reaper's round. Implementations are thread-safe.
 */
public interface QueueDataPath {

    /**
     * The most messages or deliveries one script call takes (a claim's batch, an enqueue's or a settlement's);
     * the scripts refuse more before they write anything (lua/includes/limits.lua).
     */
    int MAX_BATCH = 1000;

    /** The queue's name. */
    String name();

    /**
     * Stores the messages in one call, each idempotent on its own id; returns, in order, whether each was stored
     * (false: a no-op, because the id is known). Either all of them are written or, when Redis refuses the call,
     * none.
     */
    CompletableFuture<List<Boolean>> enqueueAsync(List<NewMessage> messages);

    /** As {@link #enqueueAsync}, waiting for Redis. */
    default List<Boolean> enqueue(List<NewMessage> messages) {
        return RedisGateway.await(enqueueAsync(messages));
    }

    /** Stores one message; returns false when it was a no-op because the id is known (idempotency). */
    default boolean enqueue(NewMessage message) {
        return enqueue(List.of(message)).get(0);
    }

    /**
     * Claims up to {@code max} messages under a lease of the visibility timeout, and no more than the claimant's
     * share of what is ready ({@link Claimant}). The claimed messages are one batch: when they are more than one,
     * Redis marks them so, and a consumer that dies holding them fails none of them (each comes back with its
     * delivery counted but no retry used up, and is claimed alone the next time). A claim that ran before with
     * the same {@code claimId} takes nothing and returns what its first run took, as far as it is still leased
     * ({@link ClaimId}); the id is renewed when the claim returns.
     */
    default List<Delivery> claim(Claimant claimant, int max, ClaimId claimId) {
        return claim(claimant, List.of(claimant), max, claimId).part(0);
    }

    /**
     * Claims for several claimants in one script call, as {@link #claim(Claimant, int, ClaimId)} does for one: one
     * part per claimant, each up to {@code maxEach} messages and no more than one claimant's share, filled in the
     * order of the claimants; each part is a batch of its own, which a consumer that dies holding it fails as above.
     * The claim is made by {@code owner}, whose id names the record of its last claim; every claimant counts as
     * live. {@code maxEach} times the claimants is at most {@link #MAX_BATCH}.
     */
    Claimed claim(Claimant owner, List<Claimant> claimants, int maxEach, ClaimId claimId);

    /** As {@link #claim(Claimant, int, ClaimId)}, as a new claim. */
    default List<Delivery> claim(Claimant claimant, int max) {
        return claim(claimant, max, new ClaimId());
    }

    /** As {@link #claim(Claimant, int)}, as the {@link Claimant#DIRECT} claimant. */
    default List<Delivery> claim(int max) {
        return claim(Claimant.DIRECT, max);
    }

    /** Settles deliveries as done, in one call; one result per lease, in order. */
    CompletableFuture<List<Settled>> ackAsync(List<Lease> leases);

    default List<Settled> ack(List<Lease> leases) {
        return RedisGateway.await(ackAsync(leases));
    }

    /**
     * Whether {@link #handOffAsync} can enqueue into {@code target} in the script call that acks a delivery of this
     * queue: both are unsharded queues of the same mode on the same Redis and database and, on a Redis Cluster, in
     * the same hash slot.
     */
    default boolean canHandOffTo(ReliableQueue target) {
        return false;
    }

    /**
     * Acks the delivery and enqueues the messages into their queues in one script call, all or nothing: ACKED, or
     * REFUSED when the lease is no longer current, and then nothing is enqueued. Every target must be one that
     * {@link #canHandOffTo} accepts.
     */
    default CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs) {
        return handOffAsync(lease, handOffs, null, null);
    }

    /**
     * As {@link #handOffAsync(Lease, List)}, and, for a request ({@code to} not null), appends the reply to its
     * requester's inbox (see {@link ReliableQueue}).
     */
    CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply);

    /** Settles deliveries as failed (retry after backoff, or dead-letter), in one call. */
    CompletableFuture<List<Settled>> nackAsync(List<Failure> failures);

    default List<Settled> nack(List<Failure> failures) {
        return RedisGateway.await(nackAsync(failures));
    }

    /**
     * A batcher of this queue's enqueues ({@link CallBatcher}): each call, with {@code around} it, holds at most
     * {@code maxBatch} messages unless one submission alone has more. A sharded queue batches each shard on its
     * own, so that a shard that fails or does not answer fails only the submissions with messages on it.
     */
    default RequestBatcher<NewMessage, Boolean> enqueueBatcher(RequestBatcher.Around<NewMessage, Boolean> around,
            int maxBatch) {
        return new CallBatcher<>(around.apply(this::enqueueAsync), maxBatch);
    }

    /** As {@link #enqueueBatcher}, for acks. */
    default RequestBatcher<Lease, Settled> ackBatcher(RequestBatcher.Around<Lease, Settled> around, int maxBatch) {
        return new CallBatcher<>(around.apply(this::ackAsync), maxBatch);
    }

    /** As {@link #enqueueBatcher}, for nacks. */
    default RequestBatcher<Failure, Settled> nackBatcher(RequestBatcher.Around<Failure, Settled> around,
            int maxBatch) {
        return new CallBatcher<>(around.apply(this::nackAsync), maxBatch);
    }

    /**
     * Moves lease deadlines forward; REFUSED for a lease that is no longer held. A sharded queue whose shard failed
     * throws a {@link PartialFailure} with the other shards' results.
     */
    List<Settled> extend(List<Lease> leases);

    /** Gives back deliveries that were claimed but never started; returns how many were given back. */
    int release(List<Lease> leases);

    /** Returns expired leases, releases due delayed messages, forgets old acked ids; bounded per call. */
    ReapResult reap();

    /** Called when a consumer of this queue stops, after its deliveries are settled; may do nothing. */
    default void leave() {
    }

    /** The shards the queue is spread over, each of which a consumer waits on: 1 when it is not sharded. */
    default int shardCount() {
        return 1;
    }

    /** A new claimer for one consumer thread, the claimant, which closes it. */
    default Claimer newClaimer(Claimant claimant) {
        return newClaimer(claimant, new ClaimId());
    }

    /** As {@link #newClaimer(Claimant)}, making its claims with {@code claimId}, shared with the claimant's others. */
    Claimer newClaimer(Claimant claimant, ClaimId claimId);
}
