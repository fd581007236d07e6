package dev.reliableredis.queue.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.PartialFailure;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.ReapResult;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.batch.RequestBatcher;

/**
 * One logical queue spread over several ordinary queues, its shards, each with its own hash tag and so its own Redis
 * Cluster slot ({@code QueueNames.shard}): a queue's scripts touch one slot, so a queue is served by one master, and
 * shards let several masters serve one queue. A message goes to the shard its shard key, else its id, picks
 * ({@link ShardPicker}); claims go round all shards from a rotating start, so that no shard waits behind another,
 * and each batch is of one shard;
 * leases carry their shard ({@link ShardLeases}); the admin operations cover every shard.
 *
 * <p>What a single queue does in one atomic call is one call per shard here: an enqueue of messages for several
 * shards can be stored on some shards and fail on another, and stats are one snapshot per shard.
 */
public final class ShardedQueue implements ReliableQueue {

    public static final int MAX_SHARDS = 1024;

    private final String name;
    private final List<ReliableQueue> shards;
    /** Where the next claim starts, so that each shard in turn is claimed from first. */
    private final AtomicInteger claimStart = new AtomicInteger();
    private final FailingShards failing;
    /** The home shard of the next claimer; starts at random so that consumers in several JVMs wait on all shards. */
    private final AtomicInteger nextHome;

    private ShardedQueue(String name, List<ReliableQueue> shards) {
        this.name = name;
        this.shards = shards;
        this.failing = new FailingShards(name, shards.size());
        this.nextHome = new AtomicInteger(ThreadLocalRandom.current().nextInt(shards.size()));
    }

    /**
     * The queue {@code name} over {@code count} shards, 2 to {@value #MAX_SHARDS}; {@code shard} makes shard i, which
     * must be named {@code QueueNames.shard(name, i)}.
     */
    public static ShardedQueue of(String name, int count, IntFunction<ReliableQueue> shard) {
        if (count < 2 || count > MAX_SHARDS) {
            throw new IllegalArgumentException("A sharded queue has 2 to " + MAX_SHARDS + " shards, not " + count
                    + " (queue '" + name + "')");
        }
        List<ReliableQueue> shards = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            shards.add(shard.apply(i));
        }
        return new ShardedQueue(name, List.copyOf(shards));
    }

    @Override
    public String name() {
        return name;
    }

    /** The shards, shard i at index i. */
    public List<ReliableQueue> shards() {
        return shards;
    }

    @Override
    public CompletableFuture<List<Boolean>> enqueueAsync(List<NewMessage> messages) {
        return new ShardBatches<>(messages, shards.size(), m -> ShardPicker.shardOf(m, shards.size()), m -> m)
                .call((shard, batch) -> shards.get(shard).enqueueAsync(batch));
    }

    @Override
    public RequestBatcher<NewMessage, Boolean> enqueueBatcher(RequestBatcher.Around<NewMessage, Boolean> around,
            int maxBatch) {
        return new ShardedBatcher<>(shards.size(), m -> ShardPicker.shardOf(m, shards.size()), m -> m,
                shard -> shards.get(shard).enqueueBatcher(around, maxBatch));
    }

    @Override
    public RequestBatcher<Lease, Settled> ackBatcher(RequestBatcher.Around<Lease, Settled> around, int maxBatch) {
        return new ShardedBatcher<>(shards.size(), ShardLeases::shardOf, ShardLeases::untag,
                shard -> shards.get(shard).ackBatcher(around, maxBatch));
    }

    @Override
    public RequestBatcher<Failure, Settled> nackBatcher(RequestBatcher.Around<Failure, Settled> around,
            int maxBatch) {
        return new ShardedBatcher<>(shards.size(), ShardLeases::shardOf, ShardLeases::untag,
                shard -> shards.get(shard).nackBatcher(around, maxBatch));
    }

    /**
     * Claims from the shards in turn, from a rotating start, and returns the first batch a shard gives: a batch is
     * always of one shard, so that the shard's own script knows the batch whole (its fair share, and the batch mark
     * that spares its messages when their consumer dies). A shard whose claim failed is passed over for a while
     * ({@link FailingShards}), so that one master down does not hold up the others' messages; a failure is thrown
     * when nothing was claimed. An interrupt (the consumer stopping) ends the claim: no further shard is sent a
     * claim whose reply nobody would take.
     */
    @Override
    public Claimed claim(Claimant owner, List<Claimant> claimants, int maxEach, ClaimId claimId) {
        int start = Math.floorMod(claimStart.getAndIncrement(), shards.size());
        RuntimeException failure = null;
        for (int k = 0; k < shards.size() && !Thread.currentThread().isInterrupted(); k++) {
            int shard = (start + k) % shards.size();
            if (failing.passOver(shard)) {
                continue;
            }
            try {
                Claimed claimed = shards.get(shard).claim(owner, claimants, maxEach,
                        claimId.shard(shard, shards.size()));
                failing.succeeded(shard);
                if (!claimed.isEmpty()) {
                    return Claimed.of(ShardLeases.tagParts(shard, claimed.parts(claimants.size())));
                }
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                failing.failed(shard, e);
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return Claimed.of(Claimed.none(claimants.size()));
    }

    /** Whether the shard's last claim failed, so that claims pass over it for a while. */
    boolean isFailing(int shard) {
        return failing.isFailing(shard);
    }

    @Override
    public CompletableFuture<List<Settled>> ackAsync(List<Lease> leases) {
        return new ShardBatches<>(leases, shards.size(), ShardLeases::shardOf, ShardLeases::untag)
                .call((shard, batch) -> shards.get(shard).ackAsync(batch));
    }

    /**
     * A request's ack goes to its shard, which carries the reply in the same call where its slot allows. No handOffs
     * come here: {@link #canHandOffTo} accepts no target.
     */
    @Override
    public CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        return shards.get(ShardLeases.shardOf(lease)).handOffAsync(ShardLeases.untag(lease), handOffs, to, reply);
    }

    /** Every shard's requests are answered in the queue's inbox, in shard 0's slot. */
    @Override
    public CompletableFuture<Void> replyAsync(ReplyTo to, Reply reply) {
        return shards.get(0).replyAsync(to, reply);
    }

    @Override
    public CompletableFuture<List<Settled>> nackAsync(List<Failure> failures) {
        return new ShardBatches<>(failures, shards.size(), ShardLeases::shardOf, ShardLeases::untag)
                .call((shard, batch) -> shards.get(shard).nackAsync(batch));
    }

    /**
     * Extends each shard's leases on their own: a shard that fails leaves its leases as they are, and the other
     * shards' are still extended; the failure is then a {@link PartialFailure} with the results of the others.
     */
    @Override
    public List<Settled> extend(List<Lease> leases) {
        return new ShardBatches<>(leases, shards.size(), ShardLeases::shardOf, ShardLeases::untag)
                .callEach(name, "extend", (shard, batch) -> shards.get(shard).extend(batch));
    }

    @Override
    public int release(List<Lease> leases) {
        List<List<Lease>> byShard = new ShardBatches<>(leases, shards.size(), ShardLeases::shardOf,
                ShardLeases::untag).byShard();
        int released = 0;
        for (int shard = 0; shard < shards.size(); shard++) {
            if (!byShard.get(shard).isEmpty()) {
                released += shards.get(shard).release(byShard.get(shard));
            }
        }
        return released;
    }

    @Override
    public ReapResult reap() {
        List<ReapResult> results = eachShard(ReliableQueue::reap);
        return new ReapResult(sum(results, ReapResult::expiredReturned), sum(results, ReapResult::expiredDeadLettered),
                sum(results, ReapResult::delayedReleased), sum(results, ReapResult::deadLettersReturned),
                sum(results, ReapResult::ackedIdsForgotten), results.stream().anyMatch(ReapResult::more));
    }

    @Override
    public long redrive(long limit) {
        long moved = 0;
        for (ReliableQueue shard : shards) {
            if (moved >= limit) {
                break;
            }
            moved += shard.redrive(limit - moved);
        }
        return moved;
    }

    /** Looks first in the shard the id picks, where the dead letter is unless it was sent with a shard key. */
    @Override
    public boolean redrive(String messageId) {
        int first = ShardPicker.shardOf(messageId, shards.size());
        for (int k = 0; k < shards.size(); k++) {
            if (shards.get((first + k) % shards.size()).redrive(messageId)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long purge() {
        return eachShard(ReliableQueue::purge).stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Pauses every shard, each for the same duration from its own call. When a shard fails, the others are paused
     * all the same and the first failure is thrown: a pause repeated once the shard is back pauses it too.
     */
    @Override
    public void pause(Duration duration) {
        eachShard(shard -> {
            shard.pause(duration);
            return null;
        });
    }

    /** Resumes every shard (a failing one as {@link #pause} says); true when any was paused. */
    @Override
    public boolean resume() {
        return eachShard(ReliableQueue::resume).contains(true);
    }

    /**
     * The counts summed over the shards; each age the largest of the shards'; paused (capped, limited) while any shard
     * is.
     */
    @Override
    public QueueStats stats() {
        List<QueueStats> all = eachShard(ReliableQueue::stats);
        return new QueueStats(sum(all, QueueStats::ready), sum(all, QueueStats::inflight),
                sum(all, QueueStats::delayed), sum(all, QueueStats::dead), max(all, QueueStats::oldestPendingAge),
                max(all, QueueStats::oldestReadyAge), max(all, QueueStats::oldestInflightAge),
                all.stream().anyMatch(QueueStats::paused), all.stream().anyMatch(QueueStats::capped),
                all.stream().anyMatch(QueueStats::limited), sum(all, QueueStats::groups));
    }

    /** The oldest {@code limit} of the shards' oldest {@code limit} each: one script call per shard. */
    @Override
    public List<BrowsedMessage> browse(QueueSection section, int limit) {
        List<BrowsedMessage> all = new ArrayList<>();
        eachShard(shard -> shard.browse(section, limit)).forEach(all::addAll);
        all.sort(Comparator.comparingLong(BrowsedMessage::age).reversed());
        return List.copyOf(all.subList(0, Math.min(limit, all.size())));
    }

    @Override
    public ShardedQueue deadLetters() {
        return new ShardedQueue(name, shards.stream().map(ReliableQueue::deadLetters).toList());
    }

    @Override
    public void leave() {
        eachShard(shard -> {
            shard.leave();
            return null;
        });
    }

    @Override
    public int shardCount() {
        return shards.size();
    }

    /**
     * A claimer whose home shard is the next in turn: it claims from every shard, and when none has anything, waits
     * for arrivals on its home shard only. An arrival on a shard that no consumer waits on is claimed when a wait
     * ends, within the consumer's maxWait.
     */
    @Override
    public Claimer newClaimer(Claimant claimant, ClaimId claimId) {
        int home = Math.floorMod(nextHome.getAndIncrement(), shards.size());
        // the home shard's claims share their ids with the claims of that shard made here: each shard keeps one
        // record of the claimant's last claim
        return new ShardedClaimer(this, claimant, claimId, home,
                shards.get(home).newClaimer(claimant, claimId.shard(home, shards.size())));
    }

    /** Runs the operation on every shard, even when one fails; then throws the first failure, if any. */
    private <T> List<T> eachShard(Function<ReliableQueue, T> operation) {
        List<T> results = new ArrayList<>(shards.size());
        RuntimeException failure = null;
        for (ReliableQueue shard : shards) {
            try {
                results.add(operation.apply(shard));
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    private static <T> long sum(List<T> values, ToLongFunction<T> field) {
        return values.stream().mapToLong(field).sum();
    }

    private static <T> long max(List<T> values, ToLongFunction<T> field) {
        return values.stream().mapToLong(field).max().orElse(0);
    }

    @Override
    public String toString() {
        return "ShardedQueue[" + name + ", " + shards.size() + " shards: " + shards + "]";
    }
}
