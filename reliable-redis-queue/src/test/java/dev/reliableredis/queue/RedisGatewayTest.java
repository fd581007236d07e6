package dev.reliableredis.queue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedisGatewayTest {

    @Test
    void callersThatArriveWhileAConnectionAttemptIsUnderWayShareIt() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        List<Socket> held = new CopyOnWriteArrayList<>();
        ClientResources resources = RedisGateway.newClientResources();
        // a server that accepts connections and never answers: each attempt lasts the whole command timeout
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             RedisGateway gateway = RedisGateway.create(resources,
                     RedisURI.create("redis://127.0.0.1:" + silent.getLocalPort()), Duration.ofMillis(1500))) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                        connections.incrementAndGet();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.start();
            CountDownLatch go = new CountDownLatch(1);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> callers = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread caller = new Thread(() -> {
                    try {
                        go.await();
                        gateway.commands();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                caller.start();
                callers.add(caller);
            }
            go.countDown();
            for (Thread caller : callers) {
                caller.join(30_000);
            }

            assertThat(failures).hasSize(4);
            assertThat(connections.get()).as("connection attempts").isEqualTo(1);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
            resources.shutdown();
        }
    }
}
