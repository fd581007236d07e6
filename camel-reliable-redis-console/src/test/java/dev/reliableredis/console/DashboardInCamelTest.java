package dev.reliableredis.console;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The embedding docs/dashboard.md shows: a service of the Camel context, started and stopped with it. */
class DashboardInCamelTest {

    @Test
    void startsAndStopsWithTheCamelContext() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            ReliableRedisDashboard dashboard = ReliableRedisDashboard.forUri(redis.uri()).keyPrefix("rr");
            CamelContext camel = new DefaultCamelContext();
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() throws Exception {
                    getContext().addService(new DashboardService(dashboard));
                }
            });

            camel.start();
            HttpResponse<String> page = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(dashboard.url())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);

            camel.stop();
            assertThatThrownBy(dashboard::port).hasMessageContaining("not started");
        }
    }
}
