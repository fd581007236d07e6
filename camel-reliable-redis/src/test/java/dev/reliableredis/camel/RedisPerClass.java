package dev.reliableredis.camel;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One plain redis-server for a test class that needs nothing else of CamelRedisTestBase (register it as a static
 * extension): started before the class's first test, emptied before each test, closed after the last.
 */
final class RedisPerClass implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private RedisProcess redis;

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = RedisProcess.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        redis.commands().flushall();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        redis.close();
    }

    String uri() {
        return redis.uri();
    }

    /** A String connection for assertions and setup. */
    RedisCommands<String, String> commands() {
        return redis.commands();
    }
}
