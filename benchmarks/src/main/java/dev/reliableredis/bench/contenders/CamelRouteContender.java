package dev.reliableredis.bench.contenders;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Contender;
import dev.reliableredis.bench.Ledger;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A contender that is a Camel route: the route (stopped until the consumers start) reports each body it receives,
 * and producers call {@code sendBody} on an endpoint resolved once, as a route's {@code to()} does.
 */
abstract class CamelRouteContender implements Contender {

    final CamelContext camel = new DefaultCamelContext();
    ProducerTemplate template;
    Endpoint producer;
    private volatile Ledger ledger;

    /** Adds the route, starts Camel and resolves the producer's endpoint; subclasses call it when set up. */
    final void start(String consumerUri, String producerUri) throws Exception {
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(consumerUri).routeId("bench").autoStartup(false)
                        .process(exchange -> ledger.received(Bodies.index(exchange.getMessage().getBody(byte[].class))));
            }
        });
        camel.start();
        template = camel.createProducerTemplate();
        producer = camel.getEndpoint(producerUri);
    }

    @Override
    public void startConsumers(Ledger ledger) throws Exception {
        this.ledger = ledger;
        camel.getRouteController().startRoute("bench");
    }

    @Override
    public void produce(int from, int to) {
        for (int i = from; i < to; i++) {
            template.sendBody(producer, Bodies.of(i));
        }
    }

    @Override
    public void sendOne(int index) {
        template.sendBody(producer, Bodies.of(index));
    }

    @Override
    public void close() throws Exception {
        camel.close();
    }
}
