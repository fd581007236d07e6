package dev.reliableredis.queue.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Groups concurrent requests into asynchronous Redis calls: one call is on its way at a time, and the requests that
 * arrive meanwhile go together in the next one, so the number of calls follows the round trips, not the requests.
 * (Measured: a second call in flight made batches smaller, and cost more Redis and client CPU per message than it
 * saved in waiting.) No thread waits for Redis: a call is made by the thread that submits when no call is on its way,
 * otherwise by the thread that completes the call before it, so calls go in the order of submission. Each submission
 * gets its own results; the requests of one submission always go in the same call.
 *
 * @param <T> a request
 * @param <R> its result
 */
public final class CallBatcher<T, R> implements RequestBatcher<T, R> {

    /** Requests of one submission and what their results complete: a list, or for a single request its result. */
    private record Pending<T, R>(List<T> requests, CompletableFuture<List<R>> results, CompletableFuture<R> result) {

        void complete(List<R> values) {
            if (result != null) {
                result.complete(values.get(0));
            } else {
                results.complete(values);
            }
        }

        void fail(Throwable failure) {
            (result != null ? result : results).completeExceptionally(failure);
        }
    }

    private final Function<List<T>, CompletionStage<List<R>>> call;
    private final int maxBatch;
    private final ConcurrentLinkedQueue<Pending<T, R>> pending = new ConcurrentLinkedQueue<>();
    /** Whether a thread is making calls: only one does, which keeps them in order. */
    private final AtomicBoolean dispatching = new AtomicBoolean();
    /** Whether a call is on its way: set by the dispatching thread, cleared by the call's completion. */
    private volatile boolean calling;

    /**
     * @param call     starts one call for a batch; its result is one result per request, in order
     * @param maxBatch most requests in one call (bounds the time Redis is busy with it), unless one submission alone
     *                 has more
     */
    public CallBatcher(Function<List<T>, CompletionStage<List<R>>> call, int maxBatch) {
        this.call = call;
        this.maxBatch = maxBatch;
    }

    /** Submits one request; its result, completed by the call itself (no further stage). */
    @Override
    public CompletableFuture<R> submit(T request) {
        CompletableFuture<R> result = new CompletableFuture<>();
        pending.add(new Pending<>(List.of(request), null, result));
        dispatch();
        return result;
    }

    /** Submits requests that go to Redis in one call; their results in order. */
    @Override
    public CompletableFuture<List<R>> submitAll(List<T> requests) {
        CompletableFuture<List<R>> results = new CompletableFuture<>();
        pending.add(new Pending<>(requests, results, null));
        dispatch();
        return results;
    }

    /**
     * Makes the next call when there are requests and no call is on its way. A thread that finds another one
     * dispatching leaves the work to it; the dispatching thread looks again after it stops, so no request is left
     * behind.
     */
    private void dispatch() {
        while (!pending.isEmpty() && !calling && dispatching.compareAndSet(false, true)) {
            try {
                List<Pending<T, R>> batch;
                if (!calling && !(batch = take()).isEmpty()) {
                    calling = true;
                    send(batch);
                }
            } finally {
                dispatching.set(false);
            }
        }
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
        CompletionStage<List<R>> sent;
        try {
            sent = call.apply(requests);
        } catch (Throwable e) {
            // the call could not even start (Redis was never reached): the requests waiting behind it would only
            // hold this thread through the same failure one by one
            List<Pending<T, R>> failed = new ArrayList<>(batch);
            for (Pending<T, R> waiting; (waiting = pending.poll()) != null; ) {
                failed.add(waiting);
            }
            sent = CompletableFuture.failedFuture(e);
            batch = failed;
        }
        List<Pending<T, R>> sentBatch = batch;
        sent.whenComplete((results, error) -> {
            calling = false;
            try {
                // the next call goes out before this one's results are handed on
                dispatch();
            } finally {
                complete(sentBatch, results, error);
            }
        });
    }

    private void complete(List<Pending<T, R>> batch, List<R> results, Throwable error) {
        int expected = batch.stream().mapToInt(p -> p.requests().size()).sum();
        Throwable failure = error != null || results.size() == expected ? error
                : new IllegalStateException("Redis answered " + results.size() + " results for " + expected
                                            + " requests");
        int from = 0;
        for (Pending<T, R> p : batch) {
            if (failure != null) {
                p.fail(failure);
            } else {
                p.complete(results.subList(from, from + p.requests().size()));
                from += p.requests().size();
            }
        }
    }
}
