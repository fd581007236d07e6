package dev.reliableredis.queue.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedisSettingsCheckTest {

    @Test
    void anEvictingPolicyAndNoPersistenceAreNamed() {
        assertThat(RedisSettingsCheck.problems("allkeys-lru", "yes", "")).singleElement().asString()
                .contains("maxmemory-policy is 'allkeys-lru'").contains("noeviction");
        assertThat(RedisSettingsCheck.problems("noeviction", "no", "")).singleElement().asString()
                .contains("persistence is off");
        assertThat(RedisSettingsCheck.problems("noeviction", "no", "3600 1")).isEmpty();
        assertThat(RedisSettingsCheck.problems("noeviction", "yes", "")).isEmpty();
    }

    @Test
    void aRiskyServerIsWarnedAboutOncePerJvm() throws IOException {
        ClientResources resources = RedisGateway.newClientResources();
        try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "allkeys-lru")) {
            for (int i = 0; i < 3; i++) {
                try (RedisGateway gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()),
                        Duration.ofSeconds(5))) {
                    gateway.commands();
                }
            }
            String log = Files.readString(Path.of("target/test-logs.txt"));
            // with the run id: a server of an earlier test of this JVM may have had the same port
            String runId = redis.commands().info("server").lines().filter(line -> line.startsWith("run_id:"))
                    .findFirst().orElseThrow().substring("run_id:".length()).trim();
            String warning = "Redis (port " + redis.port() + ", run_id " + runId.substring(0, 8) + "): ";
            assertThat(log.split(java.util.regex.Pattern.quote(warning), -1)).hasSize(3);
            assertThat(log).contains("maxmemory-policy is 'allkeys-lru'");
        } finally {
            resources.shutdown();
        }
    }
}
