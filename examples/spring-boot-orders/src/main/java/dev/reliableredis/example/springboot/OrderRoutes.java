package dev.reliableredis.example.springboot;

import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/** Orders in through direct:order, idempotent on their id, billed from the queue by four threads. */
@Component
public class OrderRoutes extends RouteBuilder {

    @Override
    public void configure() {
        from("direct:order").routeId("accept")
                .setHeader("CamelReliableRedisDeduplicationId", header("orderId"))
                .to("reliable-redis:orders");

        from("reliable-redis:orders?concurrentConsumers=4&maxRetries=3&retryDelay=100ms").routeId("bill")
                .bean(Billing.class, "bill");
    }
}
