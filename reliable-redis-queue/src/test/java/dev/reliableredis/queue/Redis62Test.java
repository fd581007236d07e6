package dev.reliableredis.queue;

import java.time.Duration;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What Redis 6.2, the oldest Redis the component supports, does differently: on a real 6.2 server. */
class Redis62Test {

    static RedisProcess redis;
    static ClientResources resources;
    static RedisGateway gateway;

    @BeforeAll
    static void startRedis62() {
        redis = RedisProcess.startRedis62();
        resources = RedisGateway.newClientResources();
        gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopRedis62() {
        gateway.close();
        resources.shutdown();
        redis.close();
    }

    @BeforeEach
    void empty() {
        redis.commands().flushall();
    }

    @Test
    void aStreamConsumerCreatesItsMissingGroupThoughRedis62WrapsTheNoGroupError() {
        assertThat(redis.commands().info("server")).contains("redis_version:6.2.");
        StreamQueue queue = StreamQueue.of(gateway, "rr", "orders",
                new StreamOptions(null, null, "g", "0", "c1", 0, true), QueueSettings.defaults());
        queue.enqueue(new NewMessage("m1", "x".getBytes(), null, 0));

        assertThat(queue.reap().total()).isZero();
        assertThat(queue.claim(1)).extracting(Delivery::messageId).containsExactly("m1");
        assertThat(redis.commands().xinfoGroups("rr:{orders}:stream")).hasSize(1);
    }

    /**
     * A script's own refusal names its cause on 6.2 too, whose error handler cannot take the table that Redis 7 reads
     * an error code from (it said "attempt to concatenate local 'err' (a table value)"); nothing is stored.
     */
    @Test
    void aScriptsRefusalNamesItsCauseOnRedis62() {
        redis.commands().set("rr:{orders}:ready", "not a list");
        ReliableQueue queue = ListQueue.of(gateway, "rr", "orders", QueueSettings.defaults());

        assertThatThrownBy(() -> queue.enqueue(new NewMessage("m1", "x".getBytes(), null, 0)))
                .isInstanceOf(NotStoredException.class)
                .hasMessageContaining("WRONGTYPE rr:{orders}:ready holds a string, not a list")
                .hasMessageNotContaining("concatenate");
        assertThat(RedisProcess.keys(redis.commands(), "rr:*")).containsExactly("rr:{orders}:ready");
    }
}
