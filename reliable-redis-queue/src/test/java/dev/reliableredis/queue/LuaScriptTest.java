package dev.reliableredis.queue;

import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

        assertThatThrownBy(() -> q.enqueue(message("m1", "a")))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("enqueue on queue 'orders' failed")
                .hasMessageContaining("WRONGTYPE");
    }

    @Test
    void anIncludeThatTwoPartsOfAScriptNeedIsInlinedOnce() {
        Long inlined = RedisGateway.await(LuaScript.load("test/once")
                .<Long>run(gateway.asyncCommands(), ScriptOutputType.INTEGER, new byte[0][]).toCompletableFuture());

        assertThat(inlined).as("a once (1), then b (10), whose own include of a is already there").isEqualTo(11);
    }

    @Test
    void includesThatFormACycleAreRefusedNamingIt() {
        assertThatThrownBy(() -> LuaScript.load("test/cycle-a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("test/cycle-a -> test/cycle-b -> test/cycle-a");
    }
}
