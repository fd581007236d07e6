package dev.reliableredis.camel.tracing;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.tracing.SpanAdapter;
import org.apache.camel.tracing.TagConstants;
import org.apache.camel.tracing.decorators.AbstractMessagingSpanDecorator;

/**
 * The spans of reliable-redis endpoints for camel-tracing (camel-opentelemetry): PRODUCER spans for sends and
 * CONSUMER spans for deliveries, with the queue as destination; a delivery's span also has its message id and
 * delivery count. Found by camel-tracing's ServiceLoader.
 */
public class TracingSpanDecorator extends AbstractMessagingSpanDecorator {

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
    public void pre(SpanAdapter span, Exchange exchange, Endpoint endpoint) {
        super.pre(span, exchange, endpoint);
        if (QueueSpans.isDelivery(exchange, endpoint)) {
            String messageId = QueueSpans.messageId(exchange);
            if (messageId != null) {
                span.setTag(TagConstants.MESSAGE_ID, messageId);
            }
            Integer deliveryCount = QueueSpans.deliveryCount(exchange);
            if (deliveryCount != null) {
                span.setTag(QueueSpans.DELIVERY_COUNT, deliveryCount);
            }
        }
    }
}
