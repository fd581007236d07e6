package dev.reliableredis.bench.contenders;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Contender;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.springrabbit.SpringRabbitMQComponent;
import org.apache.camel.impl.DefaultCamelContext;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/**
 * camel-spring-rabbitmq against the RabbitMQ this machine runs (127.0.0.1:5672, guest/guest), set up to be as
 * reliable as the component: a durable queue, persistent messages, publisher confirms awaited by every send, and
 * the ack sent after the route completed. Consumers are concurrentConsumers, prefetch is perPoll.
 */
public final class CamelRabbit implements Contender {

    private static final String QUEUE = "bench.reliable";
    private static final String EXCHANGE = "bench.exchange";
    private static final String ROUTING_KEY = "bench";

    private final Spec spec;
    private final CachingConnectionFactory connections;
    private final CamelContext camel;
    private final ProducerTemplate template;
    /** Resolved once, as a route's to() does. */
    private final Endpoint producer;
    private final RabbitAdmin admin;
    private Ledger ledger;

    public CamelRabbit(Spec spec) throws Exception {
        this.spec = spec;
        connections = new CachingConnectionFactory("127.0.0.1", 5672);
        connections.setUsername("guest");
        connections.setPassword("guest");
        connections.setPublisherConfirmType(CachingConnectionFactory.ConfirmType.SIMPLE);
        connections.setChannelCacheSize(spec.producers() * 2);
        admin = new RabbitAdmin(connections);
        // declared before any send: the memory phase sends while the consumer (which would declare them) is stopped
        Queue queue = new Queue(QUEUE, true);
        DirectExchange exchange = new DirectExchange(EXCHANGE, true, false);
        admin.declareQueue(queue);
        admin.declareExchange(exchange);
        admin.declareBinding(BindingBuilder.bind(queue).to(exchange).with(ROUTING_KEY));
        admin.purgeQueue(QUEUE, false);
        camel = new DefaultCamelContext();
        SpringRabbitMQComponent rabbit = new SpringRabbitMQComponent();
        rabbit.setConnectionFactory(connections);
        camel.addComponent("spring-rabbitmq", rabbit);
        String producerUri = "spring-rabbitmq:" + EXCHANGE + "?routingKey=" + ROUTING_KEY + "&confirm=enabled";
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("spring-rabbitmq:" + EXCHANGE + "?queues=" + QUEUE + "&routingKey=" + ROUTING_KEY
                     + "&autoDeclare=false&acknowledgeMode=AUTO&concurrentConsumers=" + spec.consumers()
                     + "&prefetchCount=" + spec.perPoll())
                        .routeId("bench").autoStartup(false)
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

    /** Acks follow the route's completion on the listener thread; an empty queue has none outstanding. */
    @Override
    public void awaitSettled() throws InterruptedException {
        while (admin.getQueueInfo(QUEUE).getMessageCount() > 0) {
            Thread.sleep(1);
        }
    }

    @Override
    public boolean usesRedis() {
        return false;
    }

    @Override
    public void close() throws Exception {
        camel.close();
        admin.purgeQueue(QUEUE, false);
        connections.destroy();
    }
}
