package dev.reliableredis.camel.tracing;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.tracing.SpanAdapter;
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
    public void pre(SpanAdapter span, Exchange exchange, Endpoint endpoint) {
        super.pre(span, exchange, endpoint);
        QueueSpans.tagDelivery(exchange, endpoint, span::setTag, span::setTag);
    }

    @Override
    public String getComponentClassName() {
        return QueueSpans.COMPONENT_CLASS;
    }
}
