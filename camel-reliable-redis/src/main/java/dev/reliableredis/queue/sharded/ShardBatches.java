package dev.reliableredis.queue.sharded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

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
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(done -> {
            int[] next = new int[calls.size()];
            Object[] results = new Object[shardOf.length];
            for (int i = 0; i < shardOf.length; i++) {
                results[i] = calls.get(shardOf[i]).join().get(next[shardOf[i]]++);
            }
            @SuppressWarnings("unchecked")
            List<R> inOrder = (List<R>) Arrays.asList(results);
            return inOrder;
        });
    }
}
