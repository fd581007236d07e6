package dev.reliableredis.camel.tracing;

import java.util.function.BiConsumer;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.camel.ReliableRedisConstants;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;

/**
 * What the span decorators of both tracer modules add to a queue's spans. The destination is the base decorators'
 * (the URI's path, the queue's name).
 */
final class QueueSpans {

    static final String COMPONENT = "reliable-redis";
    static final String COMPONENT_CLASS = ReliableRedisComponent.class.getName();
    /** OpenTelemetry's name for the message id. */
    static final String MESSAGE_ID = "messaging.message.id";
    /** The delivery count, in the messaging vendor namespace, as OpenTelemetry's own for other brokers. */
    static final String DELIVERY_COUNT = "messaging.reliable_redis.message.delivery_count";

    private QueueSpans() {
    }

    /**
     * Tags a delivery's span (the exchange came from the span's endpoint) with its message id and delivery count. A
     * span that sends gets neither: its id header is the consumed message's until the send makes the new one.
     */
    static void tagDelivery(Exchange exchange, Endpoint endpoint, BiConsumer<String, String> text,
            BiConsumer<String, Integer> number) {
        if (exchange.getFromEndpoint() != endpoint) {
            return;
        }
        String messageId = exchange.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
        if (messageId != null) {
            text.accept(MESSAGE_ID, messageId);
        }
        Integer deliveryCount = exchange.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class);
        if (deliveryCount != null) {
            number.accept(DELIVERY_COUNT, deliveryCount);
        }
    }
}
