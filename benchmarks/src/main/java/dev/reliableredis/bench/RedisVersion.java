package dev.reliableredis.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** The version of the benchmark's Redis, for the report. */
final class RedisVersion {

    private RedisVersion() {
    }

    static String of(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            for (String line : connection.sync().info("server").split("\r\n")) {
                if (line.startsWith("redis_version:")) {
                    return line.substring("redis_version:".length());
                }
            }
            return "unknown";
        } finally {
            client.shutdown();
        }
    }
}
