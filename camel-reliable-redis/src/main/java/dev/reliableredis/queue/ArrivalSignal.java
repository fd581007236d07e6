package dev.reliableredis.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes a consumer waiting on an empty queue when the queue announces, on its Pub/Sub channel, that messages
 * became ready. The mark is a generation counter: an announcement between the claim and the wait is not
 * missed. The wait is bounded, so a lost announcement (Pub/Sub is fire-and-forget) costs at most that bound in
 * latency; subscribing is best effort for the same reason, and retried every few seconds while it fails.
 */
public final class ArrivalSignal implements ArrivalWaiter {

    private static final long SUBSCRIBE_RETRY_MS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(ArrivalSignal.class);

    private final RedisGateway gateway;
    private final byte[] channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private long generation;
    private StatefulRedisPubSubConnection<byte[], byte[]> subscription;
    private long nextSubscribeAttempt;

    public ArrivalSignal(RedisGateway gateway, String channel) {
        this.gateway = gateway;
        this.channel = channel.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public long mark() {
        return generation();
    }

    @Override
    public List<Delivery> await(long mark, int maxMessages, Duration max) throws InterruptedException {
        trySubscribe();
        awaitAfter(mark, max);
        return List.of();
    }

    @Override
    public void wakeUp() {
        wakeAll();
    }

    private void trySubscribe() {
        if (isSubscribed() || System.currentTimeMillis() < nextSubscribeAttempt) {
            return;
        }
        try {
            subscribe();
        } catch (RuntimeException e) {
            nextSubscribeAttempt = System.currentTimeMillis() + SUBSCRIBE_RETRY_MS;
            LOG.debug("Cannot subscribe to {}: {}", new String(channel, StandardCharsets.UTF_8), e.getMessage());
        }
    }

    /** Subscribes if not subscribed yet; throws when Redis cannot be reached. */
    private synchronized void subscribe() {
        if (isSubscribed()) {
            return;
        }
        StatefulRedisPubSubConnection<byte[], byte[]> connection = gateway.connectPubSub();
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(byte[] ignoredChannel, byte[] message) {
                wakeAll();
            }
        });
        try {
            connection.sync().subscribe(channel);
        } catch (RuntimeException e) {
            connection.closeAsync();
            throw e;
        }
        lock.lock();
        try {
            subscription = connection;
        } finally {
            lock.unlock();
        }
        wakeAll();
    }

    private boolean isSubscribed() {
        lock.lock();
        try {
            return subscription != null;
        } finally {
            lock.unlock();
        }
    }

    private long generation() {
        lock.lock();
        try {
            return generation;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the generation has moved past {@code seen}, at most {@code max}. */
    private void awaitAfter(long seen, Duration max) throws InterruptedException {
        long nanos = max.toNanos();
        lock.lock();
        try {
            while (generation == seen && nanos > 0) {
                nanos = arrived.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends every wait now: messages arrived, or the consumer is stopping. */
    private void wakeAll() {
        lock.lock();
        try {
            generation++;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        StatefulRedisPubSubConnection<byte[], byte[]> connection;
        lock.lock();
        try {
            connection = subscription;
            subscription = null;
        } finally {
            lock.unlock();
        }
        if (connection != null) {
            connection.closeAsync();
        }
        wakeAll();
    }
}
