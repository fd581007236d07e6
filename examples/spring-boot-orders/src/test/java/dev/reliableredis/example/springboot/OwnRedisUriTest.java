package dev.reliableredis.example.springboot;

import java.time.Duration;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * camel.component.reliable-redis.redis-uri gives the queue a Redis of its own, beside the application's; the other
 * camel.component.reliable-redis.* properties reach the component too.
 */
@SpringBootTest(properties = "orders.inbox=target/orders-in")
class OwnRedisUriTest {

    private static final RedisProcess APPLICATION_REDIS = RedisProcess.start();
    private static final RedisProcess QUEUE_REDIS = RedisProcess.start();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", APPLICATION_REDIS::port);
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("camel.component.reliable-redis.redis-uri", QUEUE_REDIS::uri);
        registry.add("camel.component.reliable-redis.wait-timeout", () -> "700");
    }

    @AfterAll
    static void stopRedis() {
        APPLICATION_REDIS.close();
        QUEUE_REDIS.close();
    }

    @Autowired
    private ProducerTemplate producer;
    @Autowired
    private Billing billing;
    @Autowired
    private CamelContext camel;

    @Test
    void theQueueLivesOnTheRedisItsUriNames() {
        producer.sendBodyAndHeader("direct:order", "order", "orderId", "own-1");

        await().atMost(Duration.ofSeconds(20)).until(() -> billing.billed().contains("own-1"));
        assertThat(QUEUE_REDIS.commands().zcard("rr:{orders}:acked")).isEqualTo(1);
        assertThat(APPLICATION_REDIS.commands().exists("rr:{orders}:acked")).isZero();
        ReliableRedisComponent component = camel.getComponent("reliable-redis", ReliableRedisComponent.class);
        assertThat(component.getRedisClient()).isNull();
        assertThat(component.getWaitTimeout()).as("a component option set as a property").isEqualTo(700);
    }
}
