package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Groups concurrent requests into one Redis call: while one call is on its way, the next batch accumulates, so the
 * number of calls follows the round trips, not the requests. Each submission gets its own results; the requests of
 * one submission always go in the same call.
 *
 * @param <T> a request
 * @param <R> its result
 */
public final class CallBatcher<T, R> {

    private record Pending<T, R>(List<T> requests, CompletableFuture<List<R>> results) {
    }

    private final Function<List<T>, List<R>> call;
    private final Executor executor;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending<T, R>> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /**
     * @param call     makes one call for a batch; returns one result per request, in order
     * @param executor runs the calls, one at a time; when it refuses (shut down), the submitting thread runs them
     * @param maxBatch most requests in one call (bounds the time Redis is busy with it), unless one submission alone
     *                 has more
     */
    public CallBatcher(Function<List<T>, List<R>> call, Executor executor, int maxBatch) {
        this.call = call;
        this.executor = executor;
        this.maxBatch = maxBatch;
    }

    public CompletableFuture<R> submit(T request) {
        return submitAll(List.of(request)).thenApply(results -> results.get(0));
    }

    /** Submits requests that go to Redis in one call; their results in order. */
    public CompletableFuture<List<R>> submitAll(List<T> requests) {
        Pending<T, R> next = new Pending<>(requests, new CompletableFuture<>());
        pending.add(next);
        if (draining.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                drain();
            }
        }
        return next.results();
    }

    private void drain() {
        do {
            for (List<Pending<T, R>> batch = take(); !batch.isEmpty(); batch = take()) {
                send(batch);
            }
            draining.set(false);
        } while (!pending.isEmpty() && draining.compareAndSet(false, true));
    }

    private List<Pending<T, R>> take() {
        List<Pending<T, R>> batch = new ArrayList<>();
        int size = 0;
        Pending<T, R> next;
        while ((next = pending.peek()) != null && (batch.isEmpty() || size + next.requests().size() <= maxBatch)) {
            batch.add(pending.poll());
            size += next.requests().size();
        }
        return batch;
    }

    private void send(List<Pending<T, R>> batch) {
        List<T> requests = new ArrayList<>();
        batch.forEach(p -> requests.addAll(p.requests()));
        List<R> results;
        try {
            results = call.apply(requests);
        } catch (RuntimeException e) {
            batch.forEach(p -> p.results().completeExceptionally(e));
            return;
        }
        int from = 0;
        for (Pending<T, R> p : batch) {
            p.results().complete(results.subList(from, from + p.requests().size()));
            from += p.requests().size();
        }
    }
}
