package dev.reliableredis.bench.contenders;

import dev.reliableredis.bench.Spec;
import org.apache.camel.component.springrabbit.SpringRabbitMQComponent;
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
public final class CamelRabbit extends CamelRouteContender {

    private static final String QUEUE = "bench.reliable";
    private static final String EXCHANGE = "bench.exchange";
    private static final String ROUTING_KEY = "bench";

    private final CachingConnectionFactory connections;
    private final RabbitAdmin admin;

    public CamelRabbit(Spec spec) throws Exception {
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
        SpringRabbitMQComponent rabbit = new SpringRabbitMQComponent();
        rabbit.setConnectionFactory(connections);
        camel.addComponent("spring-rabbitmq", rabbit);
        start("spring-rabbitmq:" + EXCHANGE + "?queues=" + QUEUE + "&routingKey=" + ROUTING_KEY
              + "&autoDeclare=false&acknowledgeMode=AUTO&concurrentConsumers=" + spec.consumers()
              + "&prefetchCount=" + spec.perPoll(),
                "spring-rabbitmq:" + EXCHANGE + "?routingKey=" + ROUTING_KEY + "&confirm=enabled");
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
        super.close();
        admin.purgeQueue(QUEUE, false);
        connections.destroy();
    }
}
