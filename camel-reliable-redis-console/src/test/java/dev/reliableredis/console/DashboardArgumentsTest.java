package dev.reliableredis.console;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DashboardArgumentsTest {

    @Test
    void defaultsToALocalRedisAndAnyFreeLoopbackPort() {
        assertThat(DashboardArguments.parse(new String[0], null))
                .isEqualTo(new DashboardArguments("redis://localhost:6379", "rr", "127.0.0.1", 0,
                        Duration.ofSeconds(30), List.of()));
    }

    @Test
    void takesTheRedisUriFromTheEnvironmentUnlessGiven() {
        assertThat(DashboardArguments.parse(new String[0], "redis://:pw@redis:6380").redisUri())
                .isEqualTo("redis://:pw@redis:6380");
        assertThat(DashboardArguments.parse(new String[] {"--redis-uri", "redis://other:6379", "--prefix", "app",
                "--host", "0.0.0.0", "--port", "8089", "--visibility-timeout", "60000", "--allow-hosts",
                "ops.internal,queues.internal"}, "redis://:pw@redis:6380"))
                .isEqualTo(new DashboardArguments("redis://other:6379", "app", "0.0.0.0", 8089,
                        Duration.ofMinutes(1), List.of("ops.internal", "queues.internal")));
    }

    @Test
    void saysWhatIsWrongWithoutShowingTheUri() {
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--port", "http"}, null))
                .hasMessage("--port takes a number, was http");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--prefix"}, null))
                .hasMessage("--prefix needs a value");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--user", "x"}, null))
                .hasMessage("Unknown argument --user");
        assertThat(DashboardArguments.parse(new String[] {"--redis-uri", "redis://:pw@h:1"}, null).toString())
                .doesNotContain("pw");
    }
}
