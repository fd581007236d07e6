package dev.reliableredis.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/** What the benchmark reads off the Redis server: CPU time spent, memory used, keys left. */
public final class RedisInfo implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;

    public RedisInfo(String uri) {
        client = RedisClient.create(uri);
        connection = client.connect();
        redis = connection.sync();
    }

    /** used_cpu_sys + used_cpu_user of the server, in µs. */
    public long cpuMicros() {
        String cpu = redis.info("cpu");
        return Math.round((field(cpu, "used_cpu_sys") + field(cpu, "used_cpu_user")) * 1e6);
    }

    public long usedMemory() {
        return (long) field(redis.info("memory"), "used_memory");
    }

    public long keys() {
        return redis.dbsize();
    }

    public void flush() {
        redis.flushall();
    }

    private static double field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO has no " + name);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
