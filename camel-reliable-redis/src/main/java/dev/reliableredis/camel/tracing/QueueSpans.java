package dev.reliableredis.camel.tracing;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.camel.ReliableRedisConstants;
import dev.reliableredis.camel.ReliableRedisEndpoint;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;

/** What the span decorators of both tracer modules say of a queue's spans, from the exchange and the endpoint. */
final class QueueSpans {

    static final String COMPONENT = "reliable-redis";
    static final String COMPONENT_CLASS = ReliableRedisComponent.class.getName();
    /** The delivery count, in the messaging vendor namespace, as OpenTelemetry's own for other brokers. */
    static final String DELIVERY_COUNT = "messaging.reliable_redis.message.delivery_count";

    private QueueSpans() {
    }

    /** The queue's name, or null when the endpoint is not one of the component's (its URI then names it). */
    static String queue(Endpoint endpoint) {
        return endpoint instanceof ReliableRedisEndpoint queue ? queue.getQueueName() : null;
    }

    /**
     * Whether the span is the delivery's, the consumer's: the exchange came from this endpoint. The id header of a
     * span that sends is the consumed message's until the send makes the new one, so only a delivery's span names
     * its message.
     */
    static boolean isDelivery(Exchange exchange, Endpoint endpoint) {
        return exchange.getFromEndpoint() == endpoint;
    }

    static String messageId(Exchange exchange) {
        return exchange.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
    }

    static Integer deliveryCount(Exchange exchange) {
        return exchange.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class);
    }
}
