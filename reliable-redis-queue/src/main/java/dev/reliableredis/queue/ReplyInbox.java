package dev.reliableredis.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.CallBackoff;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inbox of one requester: a Redis List of the request queue's ({@link QueueNames#replyKey}) that the consumers
 * of its requests append their replies to, read by one thread with BLPOP on a connection of its own, so that any
 * number of requests wait on one connection. Each reply completes the request it names; a reply that names no
 * waiting request (it came after its request timed out) is dropped. The thread starts with the first request, and
 * a Redis outage makes it retry with backoff.
 */
public final class ReplyInbox implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyInbox.class);
    private static final long BLOCK_SECONDS = 1;

    private final RedisGateway redis;
    private final String queue;
    private final String id = UUID.randomUUID().toString();
    private final byte[] key;
    private final Map<String, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    private Thread reader;
    private volatile boolean closed;

    public ReplyInbox(RedisGateway redis, String keyPrefix, String queue) {
        this.redis = redis;
        this.queue = queue;
        this.key = QueueNames.replyKey(keyPrefix, queue, id).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A new request's address, and its reply: completed by the reply, or with a {@link java.util.concurrent
     * .TimeoutException} when none came within the timeout, or with an IllegalStateException when the inbox closed.
     */
    public Request expect(Duration timeout) {
        String correlationId = UUID.randomUUID().toString();
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        waiting.put(correlationId, reply);
        reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((done, error) -> waiting.remove(correlationId));
        startReader();
        return new Request(new ReplyTo(id, correlationId, timeout.toMillis()), reply);
    }

    /** Stops waiting for a request's reply: its send failed. */
    public void forget(Request request) {
        waiting.remove(request.to().correlationId());
        request.reply().cancel(false);
    }

    private synchronized void startReader() {
        if (reader == null && !closed) {
            reader = new Thread(this::read, "reliable-redis-replies-" + queue);
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read() {
        int failures = 0;
        StatefulConnection<byte[], byte[]> connection = null;
        while (!closed) {
            try {
                if (connection == null) {
                    connection = redis.connectDedicated(Duration.ofSeconds(BLOCK_SECONDS).plus(redis.commandTimeout()));
                }
                KeyValue<byte[], byte[]> popped = RedisGateway.sync(connection).blpop(BLOCK_SECONDS, key);
                if (failures > 0) {
                    LOG.info("The reply inbox of queue '{}' reads from Redis again", queue);
                    failures = 0;
                }
                if (popped != null && popped.hasValue()) {
                    deliver(popped.getValue());
                }
            } catch (RuntimeException e) {
                if (closed) {
                    break;
                }
                if (failures++ == 0) {
                    LOG.warn("The reply inbox of queue '{}' cannot read from Redis, retrying with backoff: {}", queue,
                            OneLine.of(e.getMessage()));
                }
                connection = close(connection);
                if (!pause(CallBackoff.after(failures))) {
                    break;
                }
            }
        }
        close(connection);
    }

    private void deliver(byte[] stored) {
        Reply reply;
        try {
            reply = Reply.decode(stored);
        } catch (IllegalArgumentException e) {
            LOG.warn("A reply in the inbox of queue '{}' was dropped: it is not one this component wrote ({})", queue,
                    OneLine.of(e.getMessage()));
            return;
        }
        CompletableFuture<Reply> request = waiting.remove(reply.correlationId());
        if (request == null) {
            LOG.debug("A reply to request '{}' of queue '{}' came after its requester stopped waiting; dropped",
                    OneLine.of(reply.correlationId()), queue);
        } else {
            request.complete(reply);
        }
    }

    private static StatefulConnection<byte[], byte[]> close(StatefulConnection<byte[], byte[]> connection) {
        if (connection != null) {
            connection.closeAsync();
        }
        return null;
    }

    private static boolean pause(Duration backoff) {
        try {
            Thread.sleep(backoff.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops reading; requests still waiting fail. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = reader;
        }
        if (running != null) {
            running.interrupt();
        }
        IllegalStateException stopped = new IllegalStateException("The producer of queue '" + queue
                + "' stopped while the request waited for its reply");
        waiting.values().forEach(request -> request.completeExceptionally(stopped));
        waiting.clear();
    }

    /**
     * A request waiting for its reply.
     *
     * @param to    where its consumer replies, to travel with it
     * @param reply completed by the reply
     */
    public record Request(ReplyTo to, CompletableFuture<Reply> reply) {
    }
}
