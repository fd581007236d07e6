package dev.reliableredis.example;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.camel.ReliableRedisConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.LoggingLevel;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A small order pipeline on a reliable-redis queue: orders are enqueued, processed by four threads, some fail
 * once and succeed on the retry, some always fail and end in the dead letters, which a second route consumes.
 * At the end it prints what happened to every order; lost must be 0.
 */
public final class OrderPipeline {

    private static final int ORDERS = 50;
    /** The example's log (simplelogger.properties shows it from INFO on, Camel's own from WARN). */
    private static final String LOG_NAME = "dev.reliableredis.example.orders";
    /** How often the queue retries a failed order before it dead-letters it. */
    private static final int MAX_RETRIES = 2;

    public static void main(String[] args) throws Exception {
        String redisUri = args.length > 0 ? args[0] : System.getenv().getOrDefault("REDIS_URI", "redis://localhost:6379");
        String mode = System.getProperty("mode", "list");
        int lost;
        try (RedisForExample redis = RedisForExample.at(redisUri)) {
            lost = run(redis.uri(), mode);
        }
        System.exit(lost == 0 ? 0 : 1);
    }

    private static int run(String redisUri, String mode) throws Exception {
        String queue = "example-orders-" + UUID.randomUUID().toString().substring(0, 8);
        String endpoint = "reliable-redis:" + queue + "?mode=" + mode;
        Set<String> processed = ConcurrentHashMap.newKeySet();
        Set<String> deadLettered = ConcurrentHashMap.newKeySet();
        AtomicInteger retries = new AtomicInteger();
        CountDownLatch accountedFor = new CountDownLatch(ORDERS);

        CamelContext camel = new DefaultCamelContext();
        camel.getComponent("reliable-redis", ReliableRedisComponent.class).setRedisUri(redisUri);
        camel.addRoutes(new RouteBuilder() {
            public void configure() {
                // a failed order is retried by the queue, not by Camel: one WARN line says which order, which
                // attempt and what comes next, instead of Camel's ERROR block per attempt
                errorHandler(defaultErrorHandler().logExhausted(false));
                onException(IllegalStateException.class).handled(false).logExhausted(false)
                        .process(e -> e.setProperty("next", e.getMessage().getHeader(
                                ReliableRedisConstants.DELIVERY_COUNT, Integer.class) > MAX_RETRIES
                                ? "it goes to the dead letters" : "the queue retries it"))
                        .log(LoggingLevel.WARN, LOG_NAME, "order ${header.orderNumber}, attempt "
                             + "${header.CamelReliableRedisDeliveryCount} of " + (MAX_RETRIES + 1)
                             + ": ${exception.message}; ${exchangeProperty.next}");

                // idempotencyWindow=0: the example leaves no acked ids behind in your Redis
                from(endpoint + "&concurrentConsumers=4&maxRetries=" + MAX_RETRIES + "&retryDelay=100"
                     + "&maxRetryDelay=400&reaperInterval=200&idempotencyWindow=0").routeId("orders")
                        .process(e -> {
                            int order = e.getMessage().getHeader("orderNumber", Integer.class);
                            int delivery = e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class);
                            if (delivery > 1) {
                                retries.incrementAndGet();
                            }
                            if (order % 17 == 0) {
                                throw new IllegalStateException("order " + order + " has no such product");
                            }
                            if (order % 5 == 0 && delivery == 1) {
                                throw new IllegalStateException("payment service busy for order " + order);
                            }
                            if (processed.add(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class))) {
                                accountedFor.countDown();
                            }
                        });

                from(endpoint + "&consumeDeadLetters=true&idempotencyWindow=0").routeId("dead-letters")
                        .log(LoggingLevel.INFO, LOG_NAME,
                             "dead letter ${header.orderNumber}: ${header.CamelReliableRedisFailure}")
                        .process(e -> {
                            if (deadLettered.add(e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class))) {
                                accountedFor.countDown();
                            }
                        });
            }
        });
        camel.start();
        ProducerTemplate producer = camel.createProducerTemplate();
        Set<String> enqueued = ConcurrentHashMap.newKeySet();
        for (int order = 1; order <= ORDERS; order++) {
            String id = "order-" + order;
            producer.sendBodyAndHeaders(endpoint, "{\"order\":" + order + "}",
                    Map.of(ReliableRedisConstants.DEDUPLICATION_ID, id, "orderNumber", order));
            enqueued.add(id);
        }

        accountedFor.await(60, TimeUnit.SECONDS);
        // stopping the routes lets the last exchanges finish and their acks reach Redis
        camel.getRouteController().stopRoute("orders");
        camel.getRouteController().stopRoute("dead-letters");
        @SuppressWarnings("unchecked")
        Map<String, Long> stats = producer.requestBodyAndHeader(endpoint, null,
                ReliableRedisConstants.OPERATION, "stats", Map.class);
        camel.stop();

        Set<String> unaccounted = ConcurrentHashMap.newKeySet();
        unaccounted.addAll(enqueued);
        unaccounted.removeAll(processed);
        unaccounted.removeAll(deadLettered);
        System.out.printf("%nqueue %s (%s mode)%n  enqueued      %d%n  processed     %d%n  retried       %d%n"
                          + "  dead-lettered %d%n  lost          %d%n  left in Redis %s%n",
                queue, mode, enqueued.size(), processed.size(), retries.get(), deadLettered.size(), unaccounted.size(), stats);
        return unaccounted.size();
    }
}
