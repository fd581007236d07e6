package dev.reliableredis.camel;

import java.time.Duration;

import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Routes written in the YAML and XML DSLs get the same outcomes as Java routes. */
class DslRoutesTest extends CamelRedisTestBase {

    private void load(String resource) throws Exception {
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.resolveMandatoryResource(context, resource));
    }

    private MockEndpoint mock(String name) {
        return context.getEndpoint("mock:" + name, MockEndpoint.class);
    }

    @Test
    void aYamlRouteAcksWhatCompletesAndDeadLettersWhatKeepsFailing() throws Exception {
        load("classpath:routes/orders.camel.yaml");
        send("yaml-orders", "good");
        String bad = send("yaml-orders", "bad");

        awaitStats("yaml-orders", 0, 0, 0, 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> mock("yaml-done").getReceivedCounter() == 1);
        assertThat(mock("yaml-seen").getReceivedCounter()).isEqualTo(3);
        assertThat(raw.zrange(key("yaml-orders", "dead"), 0, -1)).containsExactly(bad);
        assertThat(raw.hget(key("yaml-orders", "failure"), bad))
                .isEqualTo("java.lang.IllegalArgumentException: bad order");
    }

    @Test
    void anXmlRouteWithAHandlingOnExceptionAcks() throws Exception {
        load("classpath:routes/orders.camel.xml");
        send("xml-orders", "good");
        String bad = send("xml-orders", "bad");

        awaitStats("xml-orders", 0, 0, 0, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> mock("xml-handled").getReceivedCounter() == 1);
        assertThat(mock("xml-seen").getReceivedCounter()).isEqualTo(2);
        assertThat(raw.zscore(key("xml-orders", "acked"), bad)).isNotNull();
    }
}
