package dev.reliableredis.bench.contenders;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Contender;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import dev.reliableredis.camel.ReliableRedisConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The component through Camel routes: a route from {@code reliable-redis:bench} whose processor reports each body,
 * and producers that send the way routes do. Plain: {@code sendBody}, one message per call, from each producer
 * thread. Fast: batches of 100 bodies as one List body each, sent with {@code asyncSendBody}, 4 batches in flight
 * per producer thread.
 */
public final class ComponentRoute implements Contender {

    private static final int BATCH = 100;
    private static final int BATCHES_IN_FLIGHT = 4;

    private final Spec spec;
    private final CamelContext camel;
    private final ProducerTemplate template;
    private final String uri;
    /** Resolved once, as a route's to() does. */
    private final Endpoint endpoint;
    private Ledger ledger;

    public ComponentRoute(Spec spec) throws Exception {
        this.spec = spec;
        this.uri = "reliable-redis:bench?mode=" + spec.mode() + "&redisUri=" + spec.redisUri();
        camel = new DefaultCamelContext();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + "&concurrentConsumers=" + spec.consumers() + "&maxMessagesPerPoll=" + spec.perPoll())
                        .routeId("bench").autoStartup(false)
                        .process(exchange -> ledger.received(Bodies.index(exchange.getMessage().getBody(byte[].class))));
            }
        });
        camel.start();
        template = camel.createProducerTemplate();
        endpoint = camel.getEndpoint(uri);
    }

    @Override
    public void startConsumers(Ledger ledger) throws Exception {
        this.ledger = ledger;
        camel.getRouteController().startRoute("bench");
    }

    @Override
    public void produce(int from, int to) {
        if (spec.send().equals("fast")) {
            produceBatches(from, to);
        } else {
            for (int i = from; i < to; i++) {
                template.sendBody(endpoint, Bodies.of(i));
            }
        }
    }

    private void produceBatches(int from, int to) {
        Deque<CompletableFuture<Object>> inFlight = new ArrayDeque<>();
        for (int i = from; i < to; i += BATCH) {
            List<byte[]> batch = new ArrayList<>(BATCH);
            for (int k = i; k < Math.min(to, i + BATCH); k++) {
                batch.add(Bodies.of(k));
            }
            if (inFlight.size() == BATCHES_IN_FLIGHT) {
                inFlight.removeFirst().join();
            }
            inFlight.add(template.asyncSendBody(endpoint, batch));
        }
        inFlight.forEach(CompletableFuture::join);
    }

    @Override
    public void sendOne(int index) {
        template.sendBody(endpoint, Bodies.of(index));
    }

    @Override
    public void awaitSettled() {
        while (((Map<?, ?>) template.requestBodyAndHeader(endpoint, null, ReliableRedisConstants.OPERATION, "stats"))
                .get("inflight") instanceof Long inflight && inflight > 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Override
    public void close() throws Exception {
        camel.close();
    }
}
