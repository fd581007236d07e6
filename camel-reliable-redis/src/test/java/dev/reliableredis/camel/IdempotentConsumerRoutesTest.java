package dev.reliableredis.camel;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** idempotentConsumer(...) with the repository, in routes fed by direct: written in Java, YAML and XML. */
class IdempotentConsumerRoutesTest {

    @RegisterExtension
    static final RedisPerClass REDIS = new RedisPerClass();

    private final RedisCommands<String, String> raw = REDIS.commands();
    private CamelContext context;
    private ProducerTemplate template;

    @BeforeEach
    void startCamel() {
        context = new DefaultCamelContext();
        context.getPropertiesComponent().addInitialProperty("redis.uri", REDIS.uri());
        context.start();
        template = context.createProducerTemplate();
    }

    @AfterEach
    void stopCamel() {
        context.stop();
    }

    private Exchange send(String uri, String orderId, String body) {
        return template.send(uri, e -> {
            e.getMessage().setHeader("orderId", orderId);
            e.getMessage().setBody(body);
        });
    }

    private MockEndpoint mock(String name) {
        return context.getEndpoint("mock:" + name, MockEndpoint.class);
    }

    @Test
    void aJavaRouteDropsDuplicatesAndForgetsWhatFailed() throws Exception {
        ReliableRedisIdempotentRepository orderIds = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from("direct:orders")
                        .idempotentConsumer(header("orderId")).idempotentRepository(orderIds)
                        .to("mock:orders")
                        .filter(body().isEqualTo("fail")).throwException(new IllegalStateException("failed"));
            }
        });
        send("direct:orders", "A", "ok");
        send("direct:orders", "B", "ok");
        send("direct:orders", "A", "again");
        assertThat(send("direct:orders", "C", "fail").getException()).hasMessage("failed");
        send("direct:orders", "C", "ok");
        send("direct:orders", "C", "again");

        assertThat(mock("orders").getExchanges()).extracting(e -> e.getMessage().getHeader("orderId") + "="
                + e.getMessage().getBody()).containsExactly("A=ok", "B=ok", "C=fail", "C=ok");
        assertThat(RedisProcess.keys(raw, "rr:{orders}:seen:*")).containsExactlyInAnyOrder("rr:{orders}:seen:A",
                "rr:{orders}:seen:B", "rr:{orders}:seen:C");
    }

    @Test
    void twoCamelContextsWithOneRepositoryNameLetEachKeyThroughOnce() throws Exception {
        CamelContext second = new DefaultCamelContext();
        try {
            for (CamelContext camel : new CamelContext[] {context, second}) {
                camel.addRoutes(new RouteBuilder() {
                    public void configure() {
                        from("direct:orders").idempotentConsumer(header("orderId"))
                                .idempotentRepository(new ReliableRedisIdempotentRepository(REDIS.uri(), "shared"))
                                .to("mock:orders");
                    }
                });
            }
            second.start();
            ProducerTemplate secondTemplate = second.createProducerTemplate();
            for (String id : new String[] {"A", "B", "C"}) {
                send("direct:orders", id, "first");
                secondTemplate.sendBodyAndHeader("direct:orders", "second", "orderId", id);
            }
            secondTemplate.sendBodyAndHeader("direct:orders", "second", "orderId", "D");
            assertThat(mock("orders").getReceivedCounter()).isEqualTo(3);
            assertThat(second.getEndpoint("mock:orders", MockEndpoint.class).getExchanges())
                    .extracting(e -> e.getMessage().getHeader("orderId")).containsExactly("D");
        } finally {
            second.stop();
        }
    }

    @Test
    void aYamlRouteUsesTheRepositoryAsABean() throws Exception {
        load("classpath:routes/idempotent.camel.yaml");
        assertDuplicatesDropped("yaml-orders");
    }

    @Test
    void anXmlRouteUsesTheRepositoryAsABean() throws Exception {
        load("classpath:routes/idempotent.camel.xml");
        assertDuplicatesDropped("xml-orders");
    }

    private void load(String resource) throws Exception {
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.resolveMandatoryResource(context, resource));
    }

    private void assertDuplicatesDropped(String name) {
        send("direct:" + name, "A", "one");
        send("direct:" + name, "A", "two");
        send("direct:" + name, "B", "three");
        assertThat(mock(name).getExchanges()).extracting(e -> e.getMessage().getBody()).containsExactly("one", "three");
        // the bean's properties arrived: its name and the expiry given as PT1H
        assertThat(raw.pttl("rr:{" + name + "}:seen:A")).isBetween(Duration.ofMinutes(59).toMillis(),
                Duration.ofHours(1).toMillis());
    }

    @Test
    void jmxShowsTheRepositoryAndItsOperationsWork() throws Exception {
        ReliableRedisIdempotentRepository orderIds = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from("direct:orders").idempotentConsumer(header("orderId")).idempotentRepository(orderIds)
                        .to("mock:orders");
            }
        });
        send("direct:orders", "A", "one");
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("org.apache.camel:context="
                + context.getManagementName() + ",type=services,name=ReliableRedisIdempotentRepository*"), null);
        assertThat(names).hasSize(1);
        ObjectName repository = names.iterator().next();
        assertThat(server.getAttribute(repository, "Name")).isEqualTo("orders");
        assertThat(server.getAttribute(repository, "KeyPrefix")).isEqualTo("rr");
        assertThat(server.getAttribute(repository, "ExpiryMillis")).isEqualTo(Duration.ofHours(24).toMillis());
        String[] key = {"java.lang.String"};
        assertThat(server.invoke(repository, "contains", new Object[] {"A"}, key)).isEqualTo(true);
        assertThat(server.invoke(repository, "add", new Object[] {"B"}, key)).isEqualTo(true);
        server.invoke(repository, "clear", null, null);
        assertThat(RedisProcess.keys(raw, "rr:{orders}:seen:*")).isEmpty();
    }
}
