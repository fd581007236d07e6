package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

import dev.reliableredis.queue.CallBatcher;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.ReliableQueue;
import org.apache.camel.spi.ExecutorServiceManager;

/**
 * The sends of every producer of one endpoint: asynchronous script calls, each with all the messages that arrived
 * while the call before it was under way (at most {@value #MAX_BATCH}, so that Redis is never busy long with one).
 * A pool completes the exchanges, so that no route runs on Lettuce's I/O thread.
 */
final class Enqueuer {

    private static final int MAX_BATCH = 500;

    private final ExecutorServiceManager executors;
    private final ExecutorService completions;
    private final Executor completer = this::complete;
    private final CallBatcher<NewMessage, Boolean> batcher;

    Enqueuer(ReliableQueue queue, ExecutorServiceManager executors, Object owner) {
        this.executors = executors;
        this.completions = executors.newDefaultThreadPool(owner, "ReliableRedis[" + queue.name() + "]-sent");
        this.batcher = new CallBatcher<>(queue::enqueueAsync, MAX_BATCH);
    }

    /**
     * Stores the messages, in one script call with those other threads send meanwhile; a batch larger than
     * {@value #MAX_BATCH} in calls of that many. Whether each was stored, in order.
     */
    CompletableFuture<List<Boolean>> submit(List<NewMessage> messages) {
        if (messages.size() <= MAX_BATCH) {
            return batcher.submitAll(messages);
        }
        List<CompletableFuture<List<Boolean>>> parts = new ArrayList<>();
        for (int from = 0; from < messages.size(); from += MAX_BATCH) {
            parts.add(batcher.submitAll(messages.subList(from, Math.min(messages.size(), from + MAX_BATCH))));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(
                done -> parts.stream().flatMap(part -> part.join().stream()).toList());
    }

    /** Runs the completions of exchanges; once stopped, on the thread that stored their messages. */
    Executor completions() {
        return completer;
    }

    private void complete(Runnable completion) {
        try {
            completions.execute(completion);
        } catch (RejectedExecutionException stopped) {
            completion.run();
        }
    }

    /** Lets the sends under way finish (at most until the deadline, {@link System#nanoTime}), then stops. */
    void stop(long deadlineNanos) throws InterruptedException {
        batcher.awaitIdle(deadlineNanos);
        executors.shutdownGraceful(completions);
    }
}
