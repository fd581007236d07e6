package dev.reliableredis.console;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Clients that start a request and stall neither freeze the dashboard nor hold its threads for good. */
class DashboardStalledClientsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static RedisProcess redisServer;
    private static RedisClient client;

    @BeforeAll
    static void startRedis() {
        redisServer = RedisProcess.start();
        client = RedisClient.create(redisServer.uri());
    }

    @AfterAll
    static void stopRedis() {
        client.shutdown();
        redisServer.close();
    }

    @Test
    void twoStalledConnectionsLeaveTheDashboardAnswering() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client)) {
            dashboard.start();
            for (int i = 0; i < 2; i++) {
                stalled.add(stall(dashboard, "G"));
            }

            HttpResponse<String> settings = HTTP.send(HttpRequest.newBuilder(URI.create(dashboard.url()
                    + "api/settings")).timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(settings.statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aConnectionThatStallsInItsRequestOrItsBodyIsClosedAfterTheTimeLimit() throws Exception {
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client)
                .clientTimeLimit(Duration.ofMillis(500))) {
            dashboard.start();
            String host = "Host: 127.0.0.1:" + dashboard.port() + "\r\n";
            for (String start : new String[] {"G", "GET /api/settings HTTP/1.1\r\n" + host,
                    "POST /api/pause HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nContent-Length: 40"
                    + "\r\n\r\n{\"queue\":"}) {
                try (Socket socket = stall(dashboard, start)) {
                    socket.setSoTimeout(5_000);
                    InputStream in = socket.getInputStream();

                    // a SocketTimeoutException here: the dashboard kept the connection and a thread waiting
                    assertThat(in.read()).as(start).isEqualTo(-1);
                }
            }
        }
    }

    /** A connection that sends the start of a request and nothing more. */
    private static Socket stall(ReliableRedisDashboard dashboard, String start) throws Exception {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dashboard.port());
        OutputStream out = socket.getOutputStream();
        out.write(start.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }
}
