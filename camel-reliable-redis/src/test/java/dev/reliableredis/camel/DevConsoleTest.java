package dev.reliableredis.camel;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The reliable-redis dev console, found and called the way camel-jbang and the dev console endpoint do. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class DevConsoleTest extends CamelRedisTestBase {

    @Test
    @SuppressWarnings("unchecked")
    void showsEachEndpointsQueueOptionsActivityAndConsumers() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=" + mode + "&maxRetries=7").routeId("consume").process(received::add);
            }
        });
        send("orders", "one");
        awaitReceived(1);

        DevConsole console = console();
        Map<String, Object> endpoint = await().atMost(Duration.ofSeconds(5)).until(() -> orders(console),
                found -> found != null && ((Map<?, ?>) found.get("activity")).get("acked").equals(1L));
        assertThat(endpoint).containsEntry("mode", mode);
        assertThat((Map<String, Object>) endpoint.get("stats")).containsEntry("ready", 0L);
        assertThat((Map<String, Object>) endpoint.get("options")).containsEntry("maxRetries", 7)
                .containsKeys("shards", "waitAof", "commandTimeout", "extendVisibility", "maxLen", "exactlyOnce")
                .doesNotContainKeys("redisUri", "username", "password");
        List<Map<String, Object>> consumers = (List<Map<String, Object>>) endpoint.get("consumers");
        assertThat(consumers).singleElement().satisfies(consumer -> assertThat(consumer)
                .containsEntry("routeId", "consume").containsEntry("redisUp", true).doesNotContainKey("outage"));

        String text = (String) console.call(DevConsole.MediaType.TEXT);
        assertThat(text).contains("Queue: orders (" + mode + " mode)").contains("maxRetries=7").contains("acked=1");
    }

    @Test
    @SuppressWarnings("unchecked")
    void pausesAndResumesTheQueuesItsFilterMatchesWhenItsActionsAreOn() throws Exception {
        context.getComponent("reliable-redis", ReliableRedisComponent.class).setDevConsoleActionsEnabled(true);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=" + mode).routeId("orders").process(received::add);
                from("reliable-redis:invoices?mode=" + mode).routeId("invoices").process(received::add);
            }
        });
        DevConsole console = console();

        Map<String, Object> paused = (Map<String, Object>) console.call(DevConsole.MediaType.JSON,
                Map.of(ReliableRedisDevConsole.ACTION, "pause", ReliableRedisDevConsole.FILTER, "ord*",
                        ReliableRedisDevConsole.DURATION, "60000"));

        assertThat((Map<String, Object>) paused.get("action")).containsExactly(Map.entry("orders",
                "paused for 60000 ms"));
        assertThat(paused("orders")).isTrue();
        assertThat(paused("invoices")).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> ((Map<?, ?>) orders(console).get("stats")).get("paused")
                .equals(1L));

        String resumed = (String) console.call(DevConsole.MediaType.TEXT,
                Map.of(ReliableRedisDevConsole.ACTION, "resume"));

        assertThat(resumed).contains("orders: resumed").contains("invoices: resumed (it was not paused)");
        assertThat(paused("orders")).isFalse();
        assertThat(console.call(DevConsole.MediaType.TEXT, Map.of(ReliableRedisDevConsole.ACTION, "stop")))
                .asString().contains("'stop' is not one of pause, resume");
        assertThat(console.call(DevConsole.MediaType.TEXT, Map.of(ReliableRedisDevConsole.ACTION, "pause",
                ReliableRedisDevConsole.DURATION, "soon"))).asString().contains("duration 'soon' is not a number");
        assertThat(paused("orders")).isFalse();
    }

    @Test
    @SuppressWarnings("unchecked")
    void actsOnNothingByDefaultAndSaysThatItsActionsAreOff() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:orders?mode=" + mode).routeId("orders").process(received::add);
            }
        });
        DevConsole console = console();

        // what the dev console HTTP endpoint passes for GET /q/dev/reliable-redis?action=pause
        Map<String, Object> json = (Map<String, Object>) console.call(DevConsole.MediaType.JSON,
                Map.of(ReliableRedisDevConsole.ACTION, "pause"));
        String text = (String) console.call(DevConsole.MediaType.TEXT, Map.of(ReliableRedisDevConsole.ACTION, "pause"));

        String off = "not done: the dev console's actions are off (set the component option "
                     + "devConsoleActionsEnabled=true to turn them on)";
        assertThat((Map<String, Object>) json.get("action")).containsExactly(Map.entry("orders", off));
        assertThat(text).isEqualTo("orders: " + off + System.lineSeparator());
        assertThat(paused("orders")).isFalse();
    }

    @Test
    @SuppressWarnings("unchecked")
    void showsTheOutageUnderWayAndThenTheLastOne() throws Exception {
        try (RedisProcess own = RedisProcess.start("--requirepass", "s3cret-pw")) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:orders?mode=" + mode + "&redisUri=redis://:s3cret-pw@127.0.0.1:" + own.port())
                            .routeId("consume").process(received::add);
                }
            });
            DevConsole console = console();
            await().atMost(Duration.ofSeconds(10)).until(() -> consumer(console).get("redisUp").equals(true));

            own.kill();
            Map<String, Object> down = await().atMost(Duration.ofSeconds(5)).until(() -> consumer(console),
                    consumer -> consumer.containsKey("outage"));
            assertThat(down).containsEntry("redisUp", false);
            assertThat((Map<String, Object>) down.get("outage")).containsKeys("started", "reason", "failedAttempts");

            own.launch();
            Map<String, Object> up = await().atMost(Duration.ofSeconds(15)).until(() -> consumer(console),
                    consumer -> consumer.get("redisUp").equals(true));
            assertThat((Map<String, Object>) up.get("lastOutage")).containsKeys("started", "ended", "reason");
            assertThat(String.valueOf(console.call(DevConsole.MediaType.JSON))).doesNotContain("s3cret-pw");
            assertThat(String.valueOf(console.call(DevConsole.MediaType.TEXT))).doesNotContain("s3cret-pw");
        }
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void showsNoPasswordWhateverItHolds(String character) throws Exception {
        String password = "s3cr" + character + "et";
        try (RedisProcess own = RedisProcess.start("--requirepass", password)) {
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:orders?mode=" + mode + "&redisUri=RAW(redis://:"
                         + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@127.0.0.1:" + own.port() + ")")
                            .routeId("consume").process(received::add);
                }
            });
            DevConsole console = console();
            await().atMost(Duration.ofSeconds(10)).until(() -> consumer(console).get("redisUp").equals(true));

            assertThat(orders(console)).containsEntry("uri",
                    "reliable-redis://orders?mode=" + mode + "&redisUri=redis://127.0.0.1:" + own.port());
            assertThat(String.valueOf(console.call(DevConsole.MediaType.JSON))).doesNotContain("s3cr");
            assertThat(String.valueOf(console.call(DevConsole.MediaType.TEXT))).doesNotContain("s3cr");
        }
    }

    private DevConsole console() {
        DevConsoleRegistry registry = DevConsoleRegistry.get(context);
        assertThat(registry).as("camel-console's registry").isNotNull();
        DevConsole console = registry.resolveById("reliable-redis");
        assertThat(console).as("the reliable-redis console").isNotNull();
        return console;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> orders(DevConsole console) {
        Map<String, Object> json = (Map<String, Object>) console.call(DevConsole.MediaType.JSON);
        return ((List<Map<String, Object>>) json.get("endpoints")).stream()
                .filter(endpoint -> "orders".equals(endpoint.get("queue"))).findFirst().orElse(null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> consumer(DevConsole console) {
        return ((List<Map<String, Object>>) orders(console).get("consumers")).get(0);
    }
}
