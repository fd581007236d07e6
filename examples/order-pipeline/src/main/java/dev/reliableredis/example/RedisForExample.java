package dev.reliableredis.example;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;

import redis.embedded.RedisServer;

/** The Redis the example uses: the one at the given URI if it answers, else an embedded one it starts. */
final class RedisForExample implements AutoCloseable {

    private final String uri;
    private final RedisServer embedded;

    private RedisForExample(String uri, RedisServer embedded) {
        this.uri = uri;
        this.embedded = embedded;
    }

    static RedisForExample at(String uri) throws IOException {
        URI parsed = URI.create(uri);
        if (answers(parsed.getHost(), parsed.getPort() > 0 ? parsed.getPort() : 6379)) {
            System.out.println("Using the Redis at " + parsed.getHost() + ":" + parsed.getPort());
            return new RedisForExample(uri, null);
        }
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        RedisServer server = RedisServer.builder().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        server.start();
        System.out.println("No Redis answered at " + parsed.getHost() + ":" + parsed.getPort()
                           + "; started an embedded Redis on 127.0.0.1:" + port);
        return new RedisForExample("redis://127.0.0.1:" + port, server);
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    String uri() {
        return uri;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.stop();
        }
    }
}
