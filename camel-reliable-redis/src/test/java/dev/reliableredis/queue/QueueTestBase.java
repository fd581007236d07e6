package dev.reliableredis.queue;

import java.time.Duration;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** One redis-server per test class, emptied before each test. */
abstract class QueueTestBase {

    static RedisProcess redis;
    static ClientResources resources;
    RedisGateway gateway;
    RedisCommands<String, String> raw;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
        resources = RedisGateway.newClientResources();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        resources.shutdown();
    }

    @BeforeEach
    void connect() {
        raw = redis.commands();
        raw.flushall();
        gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(5));
    }

    @AfterEach
    void disconnect() {
        gateway.close();
    }

    ListQueue queue(String name, QueueSettings settings) {
        return ListQueue.of(gateway, "rr", name, settings);
    }

    StreamQueue streamQueue(String name, QueueSettings settings, StreamOptions options) {
        return StreamQueue.of(gateway, "rr", name, options, settings);
    }

    static StreamOptions group(String group, String consumer) {
        return new StreamOptions(null, null, group, "0", consumer, 0, true);
    }

    static QueueSettings settings(long visibilityMs, int maxRetries, long retryDelayMs) {
        return new QueueSettings(Duration.ofMillis(visibilityMs), maxRetries, Duration.ofMillis(retryDelayMs), 2.0,
                Duration.ofMillis(retryDelayMs * 100), 100, Duration.ofMinutes(10));
    }

    /** Redis server time in ms. */
    long now() {
        var time = raw.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    static NewMessage message(String id, String body) {
        return new NewMessage(id, body.getBytes(), null, 0);
    }

    String key(String queue, String part) {
        return "rr:{" + queue + "}:" + part;
    }
}
