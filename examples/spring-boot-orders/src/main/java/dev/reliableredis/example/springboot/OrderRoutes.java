package dev.reliableredis.example.springboot;

import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Orders in through direct:order (or as files dropped into the inbox), idempotent on their id, billed from the queue
 * by four threads.
 */
@Component
public class OrderRoutes extends RouteBuilder {

    @Override
    public void configure() {
        // to try it by hand: a file dropped into the inbox is an order, named by its id
        from("file:{{orders.inbox}}?delete=true").routeId("inbox")
                .setHeader("orderId", header(Exchange.FILE_NAME_ONLY))
                .convertBodyTo(String.class)
                .to("direct:order");

        from("direct:order").routeId("accept")
                .setHeader("CamelReliableRedisDeduplicationId", header("orderId"))
                .to("reliable-redis:orders");

        from("reliable-redis:orders?concurrentConsumers=4&maxRetries=3&retryDelay=100ms").routeId("bill")
                .bean(Billing.class, "bill");
    }
}
