package dev.reliableredis.queue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.reliableredis.queue.internal.QueueCalls;

/**
 * A reliable queue on Redis: every operation is one atomic script call, timed by the Redis server clock.
 * Implementations are thread-safe.
 */
public interface ReliableQueue {

    /**
     * The most messages or deliveries one script call takes (a claim's batch, an enqueue's or a settlement's);
     * the scripts refuse more before they write anything (lua/includes/limits.lua).
     */
    int MAX_BATCH = 1000;
    /** The most messages one browse reads: it reads them in one script call, which Redis serves alone. */
    int MAX_BROWSE = 1000;
    /** The longest timed pause: 14 days, as the longest delay (docs/decisions.md); longer, pause until resumed. */
    Duration MAX_PAUSE = Duration.ofDays(14);

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
        return QueueCalls.await(enqueueAsync(messages));
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
        return QueueCalls.await(ackAsync(leases));
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
     * requester's inbox: in the same script call, all or nothing, when the inbox is in the queue's slot (always but
     * for a shard other than 0 on a Redis Cluster); else right after the ack landed, so that a failure between the
     * two leaves the requester without its reply, to time out.
     */
    default CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        if (!handOffs.isEmpty()) {
            throw new UnsupportedOperationException(this + " cannot hand messages off in the script call of its ack");
        }
        return ackAsync(List.of(lease)).thenCompose(results -> replyIfAcked(results.get(0), to, reply));
    }

    /** Appends the reply to the inbox when the settlement acked the request; the settlement's result. */
    default CompletableFuture<Settled> replyIfAcked(Settled settled, ReplyTo to, Reply reply) {
        return settled != Settled.ACKED || to == null ? CompletableFuture.completedFuture(settled)
                : replyAsync(to, reply).thenApply(done -> settled);
    }

    /** Appends the reply to the requester's inbox in a call of its own (a dead-lettered request's error reply). */
    CompletableFuture<Void> replyAsync(ReplyTo to, Reply reply);

    /**
     * The next tick of the queue's schedule after the last one fired, epoch ms (in the past while it is due), or -1
     * when the queue has no schedule, or none that can be read.
     */
    default long nextTick() {
        return this instanceof QueueSchedules schedules ? ScheduleTicks.next(schedules.scheduleState()) : -1;
    }

    /** {@link #stats()} as a map, with {@code nextTick} (see {@link #nextTick()}) when the queue has a schedule. */
    default Map<String, Long> statsWithSchedule() {
        Map<String, Long> stats = new LinkedHashMap<>(stats().toMap());
        long next = nextTick();
        if (next >= 0) {
            stats.put("nextTick", next);
        }
        return stats;
    }

    /** Settles deliveries as failed (retry after backoff, or dead-letter), in one call. */
    CompletableFuture<List<Settled>> nackAsync(List<Failure> failures);

    default List<Settled> nack(List<Failure> failures) {
        return QueueCalls.await(nackAsync(failures));
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

    /** Moves up to {@code limit} dead letters back to ready; returns how many moved. */
    long redrive(long limit);

    /**
     * Moves one dead letter back to ready, exactly as {@link #redrive(long)} moves each (fresh delivery count,
     * EnqueuedAt kept, failure cleared, wakes a consumer); returns false when the queue has no dead letter with that
     * message id (nothing changes then).
     */
    boolean redrive(String messageId);

    /** Removes every ready, delayed and dead message; returns how many were removed. */
    long purge();

    /**
     * Pauses the queue for every consumer of it in every JVM: once this returns, no claim takes a message until
     * {@link #resume()}, or until {@code duration} has passed (Redis time) when it is positive; zero pauses until
     * resumed; longer than {@link #MAX_PAUSE} is refused. A pause of a paused queue replaces it. Sends, lease
     * extensions, acks, nacks and the reaper go on, and so do dead-letter consumers; a pause outlives consumer
     * restarts. A sharded queue pauses every shard.
     */
    void pause(Duration duration);

    /** Ends the queue's pause and wakes its waiting consumers at once; returns whether it was paused. */
    boolean resume();

    QueueStats stats();

    /**
     * Up to {@code limit} messages of one section, oldest first, read in one atomic script call without claiming or
     * changing anything. limit must be 1..1000 (IllegalArgumentException naming the limit and queue otherwise).
     */
    List<BrowsedMessage> browse(QueueSection section, int limit);

    /** The same queue, delivering its dead letters instead of its ready messages. */
    ReliableQueue deadLetters();

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
