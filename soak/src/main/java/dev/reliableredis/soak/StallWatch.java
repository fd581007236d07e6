package dev.reliableredis.soak;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Watches for stalls that no fault injected: a PING to Redis that is answered, or a wake-up of this thread that
 * comes, more than the threshold late (an fsync of {@code appendfsync always} held up by a busy disk, an overloaded
 * machine). A lease can expire in such a stall as in a pause of Redis, so a duplicate around one is explained by
 * it; the report counts them, so that a run full of stalls says so.
 */
final class StallWatch implements AutoCloseable {

    /** A stall and its time span, epoch ms. */
    record Stall(long startedAt, long endedAt) {
    }

    private static final long PERIOD_MS = 50;

    private final long thresholdMs;
    private final RedisClient client;
    private final List<Stall> stalls = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean watching = true;

    StallWatch(String redisUri, long thresholdMs) {
        this.thresholdMs = thresholdMs;
        RedisURI uri = RedisURI.create(redisUri);
        uri.setTimeout(Duration.ofMinutes(1));
        this.client = RedisClient.create(uri);
        this.thread = new Thread(this::watch, "soak-stall-watch");
        thread.setDaemon(true);
        thread.start();
    }

    List<Stall> stalls() {
        return stalls;
    }

    private void watch() {
        StatefulRedisConnection<String, String> connection = null;
        while (watching) {
            long before = System.currentTimeMillis();
            try {
                if (connection == null) {
                    connection = client.connect();
                }
                connection.sync().ping();
            } catch (RuntimeException e) {
                // a killed Redis: an injected fault, which explains on its own
            }
            try {
                TimeUnit.MILLISECONDS.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
            long after = System.currentTimeMillis();
            if (after - before - PERIOD_MS > thresholdMs) {
                stalls.add(new Stall(before, after));
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        watching = false;
        thread.interrupt();
        thread.join(TimeUnit.MINUTES.toMillis(1));
        client.shutdown();
    }
}
