package dev.reliableredis.queue.sharded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

import dev.reliableredis.queue.PartialFailure;

/**
 * One batch of items split into one batch per shard, in the caller's order within each; the per-shard results are
 * put back in the caller's order.
 *
 * @param <T> what is sent (messages, leases, failures)
 */
final class ShardBatches<T> {

    private final int[] shardOf;
    private final List<List<T>> byShard;

    /**
     * @param shard which shard an item goes to
     * @param local the item as its shard takes it
     */
    ShardBatches(List<T> items, int shards, ToIntFunction<T> shard, UnaryOperator<T> local) {
        shardOf = new int[items.size()];
        byShard = new ArrayList<>(shards);
        for (int i = 0; i < shards; i++) {
            byShard.add(new ArrayList<>());
        }
        for (int i = 0; i < items.size(); i++) {
            shardOf[i] = shard.applyAsInt(items.get(i));
            byShard.get(shardOf[i]).add(local.apply(items.get(i)));
        }
    }

    /** The items of each shard, shard i at index i, as the shard takes them. */
    List<List<T>> byShard() {
        return byShard;
    }

    /**
     * Makes one call per shard that has items, all under way at once; completes with one result per item in the
     * caller's order, or with the first failure once every call has ended.
     */
    <R> CompletableFuture<List<R>> call(BiFunction<Integer, List<T>, CompletableFuture<List<R>>> shardCall) {
        List<CompletableFuture<List<R>>> calls = new ArrayList<>(byShard.size());
        for (int shard = 0; shard < byShard.size(); shard++) {
            calls.add(byShard.get(shard).isEmpty() ? CompletableFuture.completedFuture(List.of())
                    : shardCall.apply(shard, byShard.get(shard)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> inOrder(calls.stream().map(CompletableFuture::join).toList()));
    }

    /**
     * Makes one waiting call per shard that has items, in turn, each whatever the others did; returns one result per
     * item in the caller's order, or throws a {@link PartialFailure} with the results of the shards that answered.
     */
    <R> List<R> callEach(String queue, String operation, BiFunction<Integer, List<T>, List<R>> shardCall) {
        List<List<R>> perShard = new ArrayList<>(byShard.size());
        RuntimeException failure = null;
        for (int shard = 0; shard < byShard.size(); shard++) {
            List<T> batch = byShard.get(shard);
            try {
                perShard.add(batch.isEmpty() ? List.of() : shardCall.apply(shard, batch));
            } catch (RuntimeException e) {
                perShard.add(Collections.nCopies(batch.size(), null));
                failure = failure == null ? e : failure;
            }
        }
        List<R> results = inOrder(perShard);
        if (failure != null) {
            throw new PartialFailure(queue, operation, failure, results);
        }
        return results;
    }

    private <R> List<R> inOrder(List<List<R>> perShard) {
        int[] next = new int[perShard.size()];
        Object[] results = new Object[shardOf.length];
        for (int i = 0; i < shardOf.length; i++) {
            results[i] = perShard.get(shardOf[i]).get(next[shardOf[i]]++);
        }
        @SuppressWarnings("unchecked")
        List<R> inOrder = (List<R>) Arrays.asList(results);
        return inOrder;
    }
}
