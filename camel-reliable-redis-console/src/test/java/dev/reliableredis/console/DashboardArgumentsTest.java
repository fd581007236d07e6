package dev.reliableredis.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DashboardArgumentsTest {

    @Test
    void defaultsToALocalRedisAndAnyFreeLoopbackPort() {
        assertThat(DashboardArguments.parse(new String[0], null, null))
                .isEqualTo(new DashboardArguments("redis://localhost:6379", "rr", null, "127.0.0.1", 0,
                        Duration.ofSeconds(30), List.of(), null, false, false));
    }

    @Test
    void takesTheRedisUriFromTheEnvironmentUnlessGiven() {
        assertThat(DashboardArguments.parse(new String[0], "redis://:pw@redis:6380", null).redisUri())
                .isEqualTo("redis://:pw@redis:6380");
        assertThat(DashboardArguments.parse(new String[] {"--redis-uri", "redis://other:6379", "--prefix", "app",
                "--slot-group", "flow", "--host", "0.0.0.0", "--port", "8089", "--visibility-timeout", "60000",
                "--allow-hosts", "ops.internal,queues.internal"}, "redis://:pw@redis:6380", null))
                .isEqualTo(new DashboardArguments("redis://other:6379", "app", "flow", "0.0.0.0", 8089,
                        Duration.ofMinutes(1), List.of("ops.internal", "queues.internal"), null, false, false));
    }

    @Test
    void saysWhatIsWrongWithoutShowingTheUri() {
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--port", "http"}, null, null))
                .hasMessage("--port takes a number, was http");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--prefix"}, null, null))
                .hasMessage("--prefix needs a value");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--user", "x"}, null, null))
                .hasMessage("Unknown argument --user");
        assertThat(DashboardArguments.parse(new String[] {"--redis-uri", "redis://:pw@h:1"}, null, "s3cret").toString())
                .doesNotContain("pw").doesNotContain("s3cret").contains("token login");
    }

    @Test
    void takesTheTokenFromItsFileElseFromTheEnvironmentAndReadOnlyAsAFlag(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("token"), "from-file\n");

        DashboardArguments fromFile = DashboardArguments.parse(new String[] {"--read-only", "--token-file",
                file.toString(), "--port", "8089"}, null, "from-env");

        assertThat(fromFile.token()).isEqualTo("from-file");
        assertThat(fromFile.readOnly()).isTrue();
        assertThat(fromFile.allowNoLogin()).isFalse();
        assertThat(DashboardArguments.parse(new String[] {"--allow-no-login", "--host", "0.0.0.0"}, null, null)
                .allowNoLogin()).isTrue();
        assertThat(fromFile.port()).isEqualTo(8089);
        assertThat(DashboardArguments.parse(new String[0], null, "from-env").token()).isEqualTo("from-env");
        Path empty = Files.writeString(dir.resolve("empty"), "");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--token-file", empty.toString()}, null, null))
                .hasMessageContaining("holds no token");
        assertThatThrownBy(() -> DashboardArguments.parse(new String[] {"--token-file", dir.resolve("none").toString()},
                null, null)).hasMessageContaining("cannot be read");
    }
}
