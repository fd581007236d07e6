package dev.reliableredis.queue.sharded;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import dev.reliableredis.queue.batch.RequestBatcher;

/**
 * One batcher per shard: a request goes to its shard's batcher, so the calls of each shard go on at their own pace,
 * and a shard that fails, or whose master does not answer, fails only the submissions with requests on it. A
 * submission with requests on several shards completes once each of its shards answered.
 */
final class ShardedBatcher<T, R> implements RequestBatcher<T, R> {

    private final List<RequestBatcher<T, R>> shards;
    private final ToIntFunction<T> shardOf;
    private final UnaryOperator<T> local;

    /**
     * @param shardOf which shard a request goes to
     * @param local   the request as its shard takes it
     * @param shard   makes shard i's own batcher
     */
    ShardedBatcher(int count, ToIntFunction<T> shardOf, UnaryOperator<T> local,
            IntFunction<RequestBatcher<T, R>> shard) {
        this.shards = IntStream.range(0, count).mapToObj(shard).toList();
        this.shardOf = shardOf;
        this.local = local;
    }

    @Override
    public CompletableFuture<R> submit(T request) {
        return shards.get(shardOf.applyAsInt(request)).submit(local.apply(request));
    }

    @Override
    public CompletableFuture<List<R>> submitAll(List<T> requests) {
        return new ShardBatches<>(requests, shards.size(), shardOf, local)
                .call((shard, batch) -> shards.get(shard).submitAll(batch));
    }
}
