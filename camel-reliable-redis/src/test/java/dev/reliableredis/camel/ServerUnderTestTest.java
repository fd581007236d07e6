package dev.reliableredis.camel;

import dev.reliableredis.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server the tests start is the one .ci/redis-versions chose: it sets the binary ({@code redis.server}) and
 * the version that binary must report ({@code redis.server.version}).
 */
@EnabledIfSystemProperty(named = "redis.server.version", matches = ".+")
class ServerUnderTestTest {

    @Test
    void theTestsRunOnTheChosenVersion() {
        try (RedisProcess redis = RedisProcess.start()) {
            String info = redis.commands().info("server");
            String version = System.getProperty("redis.server.version");

            assertThat(info).containsAnyOf("redis_version:" + version + "\r\n", "valkey_version:" + version + "\r\n");
        }
    }
}
