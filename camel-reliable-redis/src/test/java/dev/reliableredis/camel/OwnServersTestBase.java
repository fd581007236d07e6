package dev.reliableredis.camel;

import java.util.ArrayDeque;
import java.util.Deque;

import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

/**
 * A fresh, started CamelContext per test, for tests that start Redis servers of their own (a master with replicas, a
 * Sentinel group, a cluster) and point their endpoints at them with redisUri. After each test the context stops
 * before the servers the test handed to {@link #closedAfterTheTest} close, so that no route outlives its Redis.
 */
abstract class OwnServersTestBase {

    /** list or stream: every endpoint URI of a test carries it. */
    @Parameter
    String mode;

    CamelContext context;
    ProducerTemplate template;
    private final Deque<AutoCloseable> servers = new ArrayDeque<>();

    @BeforeEach
    void startCamel() {
        context = new DefaultCamelContext();
        context.start();
        template = context.createProducerTemplate();
    }

    /** A server the test started: it is closed after the context stops, the servers in reverse order of start. */
    <T extends AutoCloseable> T closedAfterTheTest(T server) {
        servers.push(server);
        return server;
    }

    @AfterEach
    void stopCamelThenServers() throws Exception {
        try {
            context.stop();
        } finally {
            while (!servers.isEmpty()) {
                servers.pop().close();
            }
        }
    }
}
