package dev.reliableredis.queue.batch;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Groups the concurrent requests of one queue operation (enqueue, ack, nack) into Redis calls; each submission gets
 * its own results. Made by the queue ({@code QueueDataPath.enqueueBatcher}), which knows what one call can hold.
 *
 * @param <T> a request
 * @param <R> its result
 */
public interface RequestBatcher<T, R> {

    /** What goes around each call a batcher makes, such as timing it or waiting for replicas after it. */
    interface Around<T, R> extends UnaryOperator<Function<List<T>, CompletionStage<List<R>>>> {
    }

    /** Submits one request; its result. */
    CompletableFuture<R> submit(T request);

    /** Submits requests together; their results in order. */
    CompletableFuture<List<R>> submitAll(List<T> requests);
}
