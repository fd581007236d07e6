package dev.reliableredis.example.springboot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The example application against a real redis-server that the test starts, found through spring.data.redis.*. */
@SpringBootTest(properties = {"camel.component.reliable-redis.health-check-producer-enabled=false",
    "orders.inbox=target/orders-in"})
class OrdersApplicationTest {

    private static final RedisProcess REDIS = RedisProcess.start();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", REDIS::port);
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Autowired
    private ProducerTemplate producer;
    @Autowired
    private Billing billing;
    @Autowired
    private CamelContext camel;
    @Autowired
    private LettuceConnectionFactory redisFactory;

    @Test
    void ordersSentThroughTheQueueAreEachBilledOnceOnTheApplicationsRedis() {
        for (int i = 0; i < 100; i++) {
            producer.sendBodyAndHeader("direct:order", "order " + i, "orderId", "o-" + i);
        }
        // a resend of a known order is a no-op
        producer.sendBodyAndHeader("direct:order", "order 7", "orderId", "o-7");

        List<String> orders = IntStream.range(0, 100).mapToObj(i -> "o-" + i).toList();
        await().atMost(Duration.ofSeconds(20)).until(() -> billing.billed().containsAll(orders));
        assertThat(REDIS.commands().zrange("rr:{orders}:acked", 0, -1)).as("the inbox test's order may be there too")
                .containsAll(orders);

        ReliableRedisComponent component = camel.getComponent("reliable-redis", ReliableRedisComponent.class);
        assertThat(component.getRedisClient()).as("the Spring Data Redis client")
                .isSameAs(redisFactory.getNativeClient());
        assertThat(component.isHealthCheckProducerEnabled()).as("camel.component.reliable-redis.*").isFalse();
    }

    /** As docs/spring-boot.md says to try it: a file dropped into the inbox is an order named by the file. */
    @Test
    void anOrderDroppedIntoTheInboxIsBilled() throws Exception {
        Path inbox = Files.createDirectories(Path.of("target/orders-in"));
        // written aside and moved in, so that the inbox never reads half a file
        Files.move(Files.writeString(inbox.resolve(".inbox-1"), "{\"item\": \"book\"}"), inbox.resolve("inbox-1"));

        await().atMost(Duration.ofSeconds(20)).until(() -> billing.billed().contains("inbox-1"));
    }
}
