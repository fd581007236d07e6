package dev.reliableredis.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.main.Main;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The YAML file of examples/jbang, run by camel-main as {@code camel run} would run it: the route file and a
 * property, nothing else. (Camel 4.17's CLI itself cannot run the component: see docs/camel-cli.md.)
 */
class YamlFileWithCamelMainTest {

    private static final Path ROUTES = Path.of("../examples/jbang/orders.camel.yaml");

    @Test
    void theExampleRouteFileSendsAndBillsItsTenOrders() throws Exception {
        assertThat(ROUTES).exists();
        try (RedisProcess redis = RedisProcess.start()) {
            Main main = new Main();
            main.configure().withRoutesIncludePattern("file:" + ROUTES.toAbsolutePath());
            main.addInitialProperty("redis.uri", redis.uri());
            main.start();
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> redis.commands().zcard("rr:{orders}:acked") == 10);
                assertThat(redis.commands().exists("rr:{orders}:ready", "rr:{orders}:inflight")).isZero();
            } finally {
                main.stop();
            }
        }
        assertThat(Files.readString(ROUTES)).contains("reliable-redis:orders");
    }
}
