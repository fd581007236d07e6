package dev.reliableredis.camel;

import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.reliableredis.camel.dsl.StaticEndpointBuilders.reliableRedis;
import static org.assertj.core.api.Assertions.assertThat;

/** Routes written with the generated Endpoint DSL reach Redis with the options the builders set. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class EndpointDslTest extends CamelRedisTestBase {

    @Test
    void aRouteBuiltWithTheEndpointDslConsumesRetriesDeadLettersAndProduces() throws Exception {
        routes(new EndpointRouteBuilder() {
            @Override
            public void configure() {
                from(reliableRedis("dsl-orders").mode(mode).concurrentConsumers(4).maxRetries(1).advanced()
                        .browseLimit(5))
                        .filter(body().isEqualTo("bad")).throwException(new IllegalStateException("bad order")).end()
                        .to(reliableRedis("dsl-billing").mode(mode));
                from(reliableRedis("dsl-billing").mode(mode)).process(received::add);
            }
        });

        send("dsl-orders", "good");
        String bad = send("dsl-orders", "bad");

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("good");
        awaitStats("dsl-orders", 0, 0, 0, 1);
        assertThat(failureOf("dsl-orders", bad)).isEqualTo("java.lang.IllegalStateException: bad order");

        ReliableRedisEndpoint orders = context.getEndpoints().stream()
                .filter(e -> e.getEndpointUri().startsWith("reliable-redis://dsl-orders"))
                .map(ReliableRedisEndpoint.class::cast).findFirst().orElseThrow();
        assertThat(orders.getConfiguration().getConcurrentConsumers()).isEqualTo(4);
        assertThat(orders.getConfiguration().getMaxRetries()).isEqualTo(1);
        assertThat(orders.getBrowseLimit()).isEqualTo(5);
    }
}
