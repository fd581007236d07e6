package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Groups concurrent requests into asynchronous Redis calls: at most {@code maxInFlight} calls are on their way at a
 * time, and the requests that arrive meanwhile go together in the next one, so the number of calls follows the round
 * trips, not the requests. No thread waits for Redis: a call is made by the thread that submits when a call may go,
 * otherwise by the thread that completes the call before it. Calls are made in the order of submission, one thread
 * at a time, so on one connection Redis runs them in that order. Each submission gets its own results; the requests
 * of one submission always go in the same call.
 *
 * @param <T> a request
 * @param <R> its result
 */
public final class CallBatcher<T, R> {

    private record Pending<T, R>(List<T> requests, CompletableFuture<List<R>> results) {
    }

    private final Function<List<T>, CompletionStage<List<R>>> call;
    private final int maxBatch;
    private final int maxInFlight;
    private final ConcurrentLinkedQueue<Pending<T, R>> pending = new ConcurrentLinkedQueue<>();
    /** Whether a thread is making calls: only one does, which keeps them in order. */
    private final AtomicBoolean dispatching = new AtomicBoolean();
    /** Calls on their way. Guarded by this; waited on by {@link #awaitIdle}. */
    private int inFlight;

    /**
     * @param call        starts one call for a batch; its result is one result per request, in order
     * @param maxBatch    most requests in one call (bounds the time Redis is busy with it), unless one submission alone
     *                    has more
     * @param maxInFlight most calls on their way at a time
     */
    public CallBatcher(Function<List<T>, CompletionStage<List<R>>> call, int maxBatch, int maxInFlight) {
        this.call = call;
        this.maxBatch = maxBatch;
        this.maxInFlight = maxInFlight;
    }

    public CompletableFuture<R> submit(T request) {
        return submitAll(List.of(request)).thenApply(results -> results.get(0));
    }

    /** Submits requests that go to Redis in one call; their results in order. */
    public CompletableFuture<List<R>> submitAll(List<T> requests) {
        Pending<T, R> next = new Pending<>(requests, new CompletableFuture<>());
        pending.add(next);
        dispatch();
        return next.results();
    }

    /**
     * Makes calls while there are requests and room for calls. A thread that finds another one dispatching leaves the
     * work to it; the dispatching thread looks again after it stops, so no request is left behind.
     */
    private void dispatch() {
        while (!pending.isEmpty() && hasRoom() && dispatching.compareAndSet(false, true)) {
            try {
                List<Pending<T, R>> batch;
                while (hasRoom() && !(batch = take()).isEmpty()) {
                    started();
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
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((results, error) -> {
            ended();
            // the next call goes out before this one's results are handed on
            dispatch();
            complete(batch, results, error);
        });
    }

    private void complete(List<Pending<T, R>> batch, List<R> results, Throwable error) {
        int from = 0;
        for (Pending<T, R> p : batch) {
            if (error != null) {
                p.results().completeExceptionally(error);
            } else {
                p.results().complete(results.subList(from, from + p.requests().size()));
                from += p.requests().size();
            }
        }
    }

    private synchronized boolean hasRoom() {
        return inFlight < maxInFlight;
    }

    private synchronized void started() {
        inFlight++;
    }

    private synchronized void ended() {
        inFlight--;
        notifyAll();
    }

    /**
     * Waits until no call is on its way and none waits to go, at most until the deadline ({@link System#nanoTime});
     * returns whether that is so.
     */
    public synchronized boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        long left;
        while ((inFlight > 0 || !pending.isEmpty()) && (left = deadlineNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return inFlight == 0 && pending.isEmpty();
    }
}
