package dev.reliableredis.camel;

import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Redis whose CONFIG command is disabled, as managed services do: the component does not need it. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
@RedisUnderTest(arguments = {"--rename-command", "CONFIG", ""})
class RenamedConfigTest extends CamelRedisTestBase {

    @Test
    void messagesFlowAndAreAckedWithoutConfig() throws Exception {
        assertThatThrownBy(() -> raw.configGet("maxmemory-policy")).hasMessageContaining("unknown command");
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:managed?mode=" + mode).process(received::add);
            }
        });

        send("managed", "hello");

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("hello");
        awaitStats("managed", 0, 0, 0, 0);
    }
}
