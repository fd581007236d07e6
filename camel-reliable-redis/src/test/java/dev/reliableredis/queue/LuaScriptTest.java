package dev.reliableredis.queue;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LuaScriptTest extends QueueTestBase {

    @Test
    void aServerThatForgotTheScriptsGetsThemAgain() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "a"));
        raw.scriptFlush();

        assertThat(q.enqueue(message("m2", "b"))).isTrue();
        assertThat(q.claim(10)).hasSize(2);
    }

    @Test
    void aRedisErrorNamesTheQueueAndTheOperation() {
        ListQueue q = queue("orders", settings(30_000, 3, 1000));
        raw.set(key("orders", "messages"), "not a hash");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> q.enqueue(message("m1", "a")))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("enqueue on queue 'orders' failed")
                .hasMessageContaining("WRONGTYPE");
    }
}
