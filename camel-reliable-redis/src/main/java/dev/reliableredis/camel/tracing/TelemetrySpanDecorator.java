package dev.reliableredis.camel.tracing;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.telemetry.Span;
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
    public void beforeTracingEvent(Span span, Exchange exchange, Endpoint endpoint) {
        super.beforeTracingEvent(span, exchange, endpoint);
        QueueSpans.tagDelivery(exchange, endpoint, span::setTag,
                (key, count) -> span.setTag(key, String.valueOf(count)));
    }

    @Override
    public String getComponentClassName() {
        return QueueSpans.COMPONENT_CLASS;
    }
}
