package dev.reliableredis.camel.tracing;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.telemetry.Span;
import org.apache.camel.telemetry.TagConstants;
import org.apache.camel.telemetry.decorators.AbstractMessagingSpanDecorator;

/**
 * The spans of reliable-redis endpoints for camel-telemetry (camel-opentelemetry2): the queue as destination; a
 * delivery's span also has its message id and delivery count. Found by camel-telemetry's ServiceLoader. (Camel 4.17's
 * camel-telemetry gives every span the kind INTERNAL; a decorator cannot change it.)
 */
public class TelemetrySpanDecorator extends AbstractMessagingSpanDecorator {

    @Override
    public String getComponent() {
        return QueueSpans.COMPONENT;
    }

    @Override
    public String getComponentClassName() {
        return QueueSpans.COMPONENT_CLASS;
    }

    @Override
    protected String getDestination(Exchange exchange, Endpoint endpoint) {
        String queue = QueueSpans.queue(endpoint);
        return queue != null ? queue : super.getDestination(exchange, endpoint);
    }

    @Override
    public void beforeTracingEvent(Span span, Exchange exchange, Endpoint endpoint) {
        super.beforeTracingEvent(span, exchange, endpoint);
        if (QueueSpans.isDelivery(exchange, endpoint)) {
            String messageId = QueueSpans.messageId(exchange);
            if (messageId != null) {
                span.setTag(TagConstants.MESSAGE_ID, messageId);
            }
            Integer deliveryCount = QueueSpans.deliveryCount(exchange);
            if (deliveryCount != null) {
                span.setTag(QueueSpans.DELIVERY_COUNT, String.valueOf(deliveryCount));
            }
        }
    }
}
