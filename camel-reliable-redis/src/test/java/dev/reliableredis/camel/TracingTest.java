package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace from the route that sends to the route that consumes, with Camel's tracers and the OpenTelemetry SDK's
 * in-memory exporter: the trace context travels in the message's headers, through redeliveries, dead letters and
 * redrives; a message that was sent without one starts a trace of its own. Each test runs with camel-opentelemetry
 * (camel-tracing) and with camel-opentelemetry2 (camel-telemetry), whose span decorators the component registers.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class TracingTest extends CamelRedisTestBase {

    /** Camel's two tracer modules. */
    enum Module {
        OPENTELEMETRY, OPENTELEMETRY2
    }

    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> OP = AttributeKey.stringKey("op");
    private static final InMemorySpanExporter EXPORTER = InMemorySpanExporter.create();
    private static final OpenTelemetrySdk SDK = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(EXPORTER)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();

    private final AtomicBoolean failing = new AtomicBoolean();
    private CamelContext traced;
    private ProducerTemplate tracedTemplate;

    @AfterEach
    void stopTraced() {
        if (traced != null) {
            traced.stop();
        }
        EXPORTER.reset();
    }

    /** A CamelContext traced by the module, sending from direct:send to the queue orders, with these routes. */
    private void traced(Module module, RouteBuilder routes) throws Exception {
        traced = new DefaultCamelContext();
        connect(traced.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri());
        // both tracers take the one Tracer and ContextPropagators of the registry
        traced.getRegistry().bind("tracer", SDK.getTracer("reliable-redis-test"));
        traced.getRegistry().bind("propagators", SDK.getPropagators());
        if (module == Module.OPENTELEMETRY) {
            new org.apache.camel.opentelemetry.OpenTelemetryTracer().init(traced);
        } else {
            org.apache.camel.opentelemetry2.OpenTelemetryTracer tracer =
                    new org.apache.camel.opentelemetry2.OpenTelemetryTracer();
            tracer.setCamelContext(traced);
            tracer.init(traced);
        }
        traced.addRoutes(new RouteBuilder() {
            public void configure() {
                from("direct:send").to(orders(""));
            }
        });
        traced.addRoutes(routes);
        traced.start();
        tracedTemplate = traced.createProducerTemplate();
    }

    private String orders(String options) {
        return "reliable-redis:orders?mode=" + mode + options;
    }

    /**
     * Sends through the traced context from a thread of its own; returns the message id. Camel 4.17's tracers leave
     * an asynchronous send's context current on the thread that made it (docs/operations.md#tracing), which would
     * make the next send on that thread a part of this one's trace.
     */
    private String tracedSend(String body) throws Exception {
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            Exchange sent = sender.submit(() -> tracedTemplate.request("direct:send", e -> e.getMessage().setBody(body)))
                    .get(15, TimeUnit.SECONDS);
            assertThat(sent.getException()).isNull();
            return sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
        } finally {
            sender.shutdownNow();
        }
    }

    /** A delivery route of orders that fails while {@link #failing} is set. */
    private RouteBuilder consuming(String options) {
        return new RouteBuilder() {
            public void configure() {
                from(orders(options)).process(received::add).process(e -> {
                    if (failing.get()) {
                        throw new IllegalStateException("failing");
                    }
                });
            }
        };
    }

    private static List<SpanData> spansOfOrders() {
        return EXPORTER.getFinishedSpanItems().stream().filter(s -> "orders".equals(s.getAttributes().get(DESTINATION)))
                .toList();
    }

    /** The spans of sends to orders: PRODUCER spans with camel-opentelemetry, "EVENT_SENT" with camel-opentelemetry2. */
    private static List<SpanData> sends() {
        return spansOfOrders().stream()
                .filter(s -> s.getKind() == SpanKind.PRODUCER || "EVENT_SENT".equals(s.getAttributes().get(OP)))
                .toList();
    }

    /** The spans of deliveries of orders' messages, in the order they ended. */
    private static List<SpanData> deliveries() {
        return spansOfOrders().stream()
                .filter(s -> s.getKind() == SpanKind.CONSUMER || "EVENT_RECEIVED".equals(s.getAttributes().get(OP)))
                .toList();
    }

    private static List<SpanData> awaitDeliveries(int count) {
        return await(count + " delivery spans").atMost(Duration.ofSeconds(15)).until(TracingTest::deliveries,
                spans -> spans.size() >= count);
    }

    /** The spans of the sends, in the order they were made (each send ends before the next starts). */
    private static List<SpanData> awaitSends(int count) {
        return await(count + " send spans").atMost(Duration.ofSeconds(15)).until(TracingTest::sends,
                spans -> spans.size() >= count);
    }

    private static List<SpanData> deliveriesOf(List<SpanData> deliveries, String messageId) {
        return deliveries.stream().filter(s -> messageId.equals(attribute(s, "messaging.message.id"))).toList();
    }

    /** An attribute as text, whichever type the module gave it. */
    private static String attribute(SpanData span, String key) {
        return span.getAttributes().asMap().entrySet().stream().filter(e -> e.getKey().getKey().equals(key))
                .map(e -> String.valueOf(e.getValue())).findFirst().orElse(null);
    }

    /** The delivery span is the send span's child, in its trace, and names the queue, the message and the attempt. */
    private static void assertDeliveryOf(SpanData delivery, SpanData send, String messageId, int deliveryCount) {
        assertThat(delivery.getTraceId()).isEqualTo(send.getTraceId());
        assertThat(delivery.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(attribute(delivery, "messaging.message.id")).isEqualTo(messageId);
        assertThat(attribute(delivery, "messaging.reliable_redis.message.delivery_count"))
                .isEqualTo(String.valueOf(deliveryCount));
    }

    @ParameterizedTest
    @EnumSource(Module.class)
    void theDeliverysSpanIsAChildOfTheSendsSpanAndNamesQueueAndMessage(Module module) throws Exception {
        traced(module, consuming(""));

        String id = tracedSend("order 1");

        SpanData delivery = awaitDeliveries(1).get(0);
        SpanData send = awaitSends(1).get(0);
        assertDeliveryOf(delivery, send, id, 1);
        assertThat(attribute(send, "messaging.message.id")).as("a send's span starts before its id is made")
                .isNull();
        if (module == Module.OPENTELEMETRY) {
            assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(delivery.getKind()).isEqualTo(SpanKind.CONSUMER);
        }
    }

    @ParameterizedTest
    @EnumSource(Module.class)
    void eachRedeliveryIsASpanOfItsOwnInTheSendsTrace(Module module) throws Exception {
        traced(module, new RouteBuilder() {
            public void configure() {
                from(orders("&maxRetries=1&retryDelay=10")).process(e -> {
                    if (e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) == 1) {
                        throw new IllegalStateException("first attempt");
                    }
                });
            }
        });

        String id = tracedSend("order 1");

        List<SpanData> deliveries = awaitDeliveries(2);
        SpanData send = awaitSends(1).get(0);
        assertDeliveryOf(deliveries.get(0), send, id, 1);
        assertDeliveryOf(deliveries.get(1), send, id, 2);
        assertThat(deliveries.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(deliveries.get(1).getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
    }

    @ParameterizedTest
    @EnumSource(Module.class)
    void aRedrivenMessageAndADeadLetterConsumedLaterStayInTheirSendsTrace(Module module) throws Exception {
        failing.set(true);
        traced(module, consuming("&maxRetries=0"));
        String redriven = tracedSend("order 1");
        awaitStats("orders", 0, 0, 0, 1);
        String consumedDead = tracedSend("order 2");
        awaitStats("orders", 0, 0, 0, 2);

        failing.set(false);
        template.requestBodyAndHeaders(orders(""), null, Map.of(ReliableRedisConstants.OPERATION, "redrive",
                ReliableRedisConstants.LIMIT, 1));
        traced.addRoutes(consuming("&consumeDeadLetters=true"));

        List<SpanData> deliveries = awaitDeliveries(4);
        awaitStats("orders", 0, 0, 0, 0);
        List<SpanData> sends = awaitSends(2);
        assertThat(deliveriesOf(deliveries, redriven)).as("the dead-lettered delivery and the redriven one")
                .hasSize(2).allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(sends.get(0).getSpanId()));
        assertThat(deliveriesOf(deliveries, consumedDead)).as("the dead-lettered delivery and the dead letter's")
                .hasSize(2).allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(sends.get(1).getSpanId()));
        assertThat(sends.get(0).getTraceId()).isNotEqualTo(sends.get(1).getTraceId());
    }

    @ParameterizedTest
    @EnumSource(Module.class)
    void aMessageSentWithoutATraceStartsOneOfItsOwn(Module module) throws Exception {
        traced(module, consuming(""));
        tracedSend("traced");
        awaitDeliveries(1);

        // another program: in stream mode a plain XADD, in list mode a send of a context that traces nothing
        if (streamMode()) {
            raw.xadd(key("orders", "stream"), "order", "2");
        } else {
            template.sendBody(orders(""), "untraced");
        }

        SpanData foreign = awaitDeliveries(2).get(1);
        assertThat(foreign.getParentSpanContext().isValid()).as("a root span").isFalse();
        assertThat(sends()).extracting(SpanData::getTraceId).doesNotContain(foreign.getTraceId());
    }
}
