package dev.reliableredis.camel;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The endpoint's and the consumer's JMX attributes and operations, read from the platform MBean server. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class ManagementTest extends CamelRedisTestBase {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    @SuppressWarnings("unchecked")
    void theEndpointShowsItsQueueAndItsOperationsWork() throws Exception {
        alwaysFailingRoute("consume", "reliable-redis:q?mode=" + mode + "&maxRetries=0", "always fails");
        send("q", "one");
        send("q", "two");
        awaitStats("q", 0, 0, 0, 2);
        context.getRouteController().stopRoute("consume");
        send("q", "three");

        ObjectName endpoint = mbean("endpoints", "reliable-redis://q?maxRetries=0&mode=" + mode);
        await().atMost(Duration.ofSeconds(5)).until(() -> (Long) server.getAttribute(endpoint, "Dead") == 2);
        assertThat(server.getAttribute(endpoint, "Ready")).isEqualTo(1L);
        assertThat(server.getAttribute(endpoint, "Inflight")).isEqualTo(0L);
        assertThat(server.getAttribute(endpoint, "Delayed")).isEqualTo(0L);
        assertThat(server.getAttribute(endpoint, "QueueName")).isEqualTo("q");
        assertThat(server.getAttribute(endpoint, "Mode")).isEqualTo(mode);
        await().atMost(Duration.ofSeconds(5)).until(() -> (Long) server.getAttribute(endpoint, "OldestReadyAge") > 0);
        assertThat(server.getAttribute(endpoint, "OldestInflightAge")).isEqualTo(0L);

        assertThat(server.invoke(endpoint, "redrive", new Object[] {1L}, new String[] {"long"})).isEqualTo(1L);
        assertThat((Map<String, Long>) server.invoke(endpoint, "stats", null, null))
                .containsEntry("ready", 2L).containsEntry("dead", 1L);
        assertThat(server.invoke(endpoint, "purge", null, null)).isEqualTo(3L);
        awaitStats("q", 0, 0, 0, 0);

        assertThat(server.getAttribute(endpoint, "Paused")).isEqualTo(0L);
        server.invoke(endpoint, "pauseQueue", new Object[] {0L}, new String[] {"long"});
        assertThat(paused("q")).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> (Long) server.getAttribute(endpoint, "Paused") == 1);
        assertThat(server.invoke(endpoint, "resumeQueue", null, null)).isEqualTo(true);
        assertThat(paused("q")).isFalse();
    }

    @Test
    void theEndpointShowsWhileTheQueueIsAtItsCapOrItsRateLimit() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:capped?mode=" + mode + "&maxInflight=1&concurrentConsumers=2")
                        .process(e -> release.await());
                from("reliable-redis:limited?mode=" + mode + "&rateLimit=1/1h").process(received::add);
            }
        });
        ObjectName capped = mbean("endpoints",
                "reliable-redis://capped?concurrentConsumers=2&maxInflight=1&mode=" + mode);
        ObjectName limited = mbean("endpoints", "reliable-redis://limited?mode=" + mode + "&rateLimit=1/1h");
        assertThat(server.getAttribute(capped, "Capped")).isEqualTo(0L);
        assertThat(server.getAttribute(limited, "RateLimited")).isEqualTo(0L);

        send("capped", "runs until released");
        send("capped", "waits at the cap");
        send("limited", "the one an hour allows");
        send("limited", "held back");

        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> (Long) server.getAttribute(capped, "Capped") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> (Long) server.getAttribute(limited, "RateLimited") == 1);
            assertThat(server.getAttribute(capped, "RateLimited")).isEqualTo(0L);
            assertThat(server.getAttribute(limited, "Capped")).isEqualTo(0L);
            assertThat(received).hasSize(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void theConsumerShowsWhatItDidAndWhetherRedisAnswers() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&maxRetries=1&retryDelay=10&visibilityTimeout=300")
                        .routeId("consume")
                        .process(e -> {
                            String body = e.getMessage().getBody(String.class);
                            if (body.equals("slow")) {
                                // runs until its lease has been extended at least once
                                ReliableRedisConsumer self =
                                        (ReliableRedisConsumer) context.getRoute("consume").getConsumer();
                                await().atMost(Duration.ofSeconds(5))
                                        .until(() -> self.getLeaseExtensionCount() > 0);
                            } else if (body.equals("bad")) {
                                throw new IllegalStateException("bad");
                            }
                        });
            }
        });
        send("q", "slow");
        send("q", "bad");
        awaitStats("q", 0, 0, 0, 1);

        ObjectName consumer = mbean("consumers", "*");
        assertThat(server.getAttribute(consumer, "RedisUp")).isEqualTo(true);
        assertThat(server.getAttribute(consumer, "QueueName")).isEqualTo("q");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(server.getAttribute(consumer, "DeliveredCount")).isEqualTo(3L);
            assertThat(server.getAttribute(consumer, "AckedCount")).isEqualTo(1L);
            assertThat(server.getAttribute(consumer, "RetriedCount")).isEqualTo(1L);
            assertThat(server.getAttribute(consumer, "RetriedAfterCount")).isEqualTo(0L);
            assertThat(server.getAttribute(consumer, "DeadLetteredCount")).isEqualTo(1L);
        });
        assertThat((Long) server.getAttribute(consumer, "LeaseExtensionCount")).isPositive();
        assertThat(server.getAttribute(consumer, "RefusedSettlementCount")).isEqualTo(0L);
        assertThat(server.getAttribute(consumer, "LeasesLostCount")).isEqualTo(0L);
        assertThat(server.getAttribute(consumer, "OutageSince")).isEqualTo("");
    }

    @Test
    void noAttributeShowsThePassword() throws Exception {
        try (RedisProcess locked = RedisProcess.start("--requirepass", "s3cret-pw")) {
            String inUri = "redis://:s3cret-pw@127.0.0.1:" + locked.port();
            routes(new RouteBuilder() {
                public void configure() {
                    from("reliable-redis:a?mode=" + mode + "&redisUri=" + inUri).routeId("a").log("${body}");
                    from("reliable-redis:b?mode=" + mode + "&redisUri=" + locked.uri() + "&password=s3cret-pw")
                            .routeId("b").log("${body}");
                    from("direct:in").to("reliable-redis:a?mode=" + mode + "&redisUri=" + inUri);
                }
            });
            template.sendBody("direct:in", "hello");
            await().atMost(Duration.ofSeconds(5)).until(() -> locked.commands("s3cret-pw").dbsize() >= 0);

            Set<ObjectName> names = server.queryNames(
                    new ObjectName("org.apache.camel:context=" + context.getManagementName() + ",*"), null);
            assertThat(names).isNotEmpty();
            int read = 0;
            for (ObjectName name : names) {
                assertThat(name.toString()).doesNotContain("s3cret-pw");
                for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                    Object value;
                    try {
                        value = server.getAttribute(name, attribute.getName());
                    } catch (Exception unreadable) {
                        continue;
                    }
                    read++;
                    assertThat(String.valueOf(value)).as(name + " " + attribute.getName())
                            .doesNotContain("s3cret-pw");
                }
            }
            assertThat(read).isGreaterThan(100);
        }
    }

    /** The one MBean of this context of that type whose name matches. */
    private ObjectName mbean(String type, String name) throws Exception {
        String quoted = name.equals("*") ? "*" : ObjectName.quote(name);
        Set<ObjectName> names = server.queryNames(new ObjectName("org.apache.camel:context="
                + context.getManagementName() + ",type=" + type + ",name=" + quoted), null);
        assertThat(names).as(type + " " + name).hasSize(1);
        return names.iterator().next();
    }
}
