package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.OutcomeUnknownException;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.batch.RequestBatcher;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.redis.ReplicaWait;
import dev.reliableredis.queue.runtime.QueueActivity;
import dev.reliableredis.queue.runtime.RoundTrips;
import org.apache.camel.spi.ExecutorServiceManager;

/**
 * The sends of every producer of one endpoint: asynchronous script calls, each with all the messages that arrived
 * while the call before it was under way (at most {@value #MAX_BATCH}, so that Redis is never busy long with one).
 * The exchanges go on in a pool of their own, never on Lettuce's I/O thread, where a route would hold up every
 * Redis reply. With waitReplicas, a call's messages are sent once replicas have them ({@link ReplicaWait}).
 */
final class Enqueuer {

    private static final int MAX_BATCH = 500;
    private static final long STOP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ExecutorServiceManager executors;
    /** Grows with the exchanges that go on at once and refuses nothing until shut down. */
    private final ExecutorService completions;
    private final RequestBatcher<NewMessage, Boolean> batcher;
    private final QueueActivity activity;
    /** Sends whose exchange has not gone on yet: counted without a monitor per send; {@link #stop} polls it. */
    private final AtomicInteger outstanding = new AtomicInteger();

    Enqueuer(ReliableQueue queue, ReplicaWait replicas, ExecutorServiceManager executors, Object owner,
            QueueActivity activity) {
        this.executors = executors;
        this.completions = executors.newCachedThreadPool(owner, "ReliableRedis[" + queue.name() + "]-sent");
        this.activity = activity;
        this.batcher = queue.enqueueBatcher(call -> RoundTrips.timed("enqueue", activity,
                messages -> replicas.after(call.apply(messages).toCompletableFuture(), (stored, why) -> {
                    throw new OutcomeUnknownException(queue.name(), "enqueue", why + ". The messages are stored on "
                            + "the master but may be lost if it fails before they are replicated or on disk; a send "
                            + "with a " + ReliableRedisConstants.DEDUPLICATION_ID + " can be repeated safely: with the "
                            + "same id it is a no-op while the message is known");
                })), MAX_BATCH);
    }

    /**
     * Stores the messages, in one script call with those other threads send meanwhile (a batch larger than
     * {@value #MAX_BATCH} in calls of that many), then hands whether each was stored, in order, or the failure, to
     * {@code done}, in the completions pool.
     */
    void send(List<NewMessage> messages, BiConsumer<List<Boolean>, Throwable> done) {
        outstanding.incrementAndGet();
        submit(messages).whenComplete((stored, error) -> {
            if (error == null) {
                stored.forEach(activity::sent);
            }
            Runnable goOn = () -> {
                try {
                    done.accept(stored, error);
                } finally {
                    outstanding.decrementAndGet();
                }
            };
            try {
                completions.execute(goOn);
            } catch (RejectedExecutionException stopped) {
                // only once stop gave up waiting: an exchange that goes on here is better than one that never does
                goOn.run();
            }
        });
    }

    /**
     * Stores the messages as {@link #send} does, waiting on the calling thread: Redis's reply wakes it directly.
     * Returns whether each was stored, in order; throws the failure.
     */
    List<Boolean> sendAndWait(List<NewMessage> messages) {
        List<Boolean> stored = RedisGateway.await(submit(messages));
        stored.forEach(activity::sent);
        return stored;
    }

    private CompletableFuture<List<Boolean>> submit(List<NewMessage> messages) {
        if (messages.size() <= MAX_BATCH) {
            return batcher.submitAll(messages);
        }
        List<CompletableFuture<List<Boolean>>> parts = new ArrayList<>();
        for (int from = 0; from < messages.size(); from += MAX_BATCH) {
            parts.add(batcher.submitAll(messages.subList(from, Math.min(messages.size(), from + MAX_BATCH))));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(
                all -> parts.stream().flatMap(part -> part.join().stream()).toList());
    }

    /** Lets the sends under way go on (at most until the deadline, {@link System#nanoTime}), then stops. */
    void stop(long deadlineNanos) throws InterruptedException {
        long left;
        while (outstanding.get() > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, STOP_POLL_NANOS));
        }
        executors.shutdownGraceful(completions);
    }
}
