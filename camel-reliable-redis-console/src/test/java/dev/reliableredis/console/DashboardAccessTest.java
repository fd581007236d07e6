package dev.reliableredis.console;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.reliableredis.console.SampleQueues.LIST_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The dashboard's token login and its read-only mode, over HTTP: what is refused, and that it changes nothing. */
class DashboardAccessTest {

    private static final String TOKEN = "correct horse battery staple";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Where the tests' log goes (simplelogger.properties). */
    private static final Path TEST_LOG = Path.of("target/test-logs.txt");

    private static RedisProcess redisServer;
    private static RedisClient client;
    private static RedisGateway redis;

    @BeforeAll
    static void startRedis() {
        redisServer = RedisProcess.start();
        client = RedisClient.create(redisServer.uri());
        redis = RedisGateway.using(client, Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        client.shutdown();
        redisServer.close();
    }

    @BeforeEach
    void fillQueues() {
        redisServer.commands().flushall();
        SampleQueues.fill(redis);
    }

    @Test
    void withATokenEveryRequestWithoutItIsRefusedWith401AndNothingChanges() throws Exception {
        QueueStats before = listCounts();
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client).token(TOKEN)) {
            dashboard.start();
            // no token at all: refused with 401 each time, with no back-off
            for (String authorization : new String[] {null, "Bearer", "Basic not-base64!", "Digest " + TOKEN}) {
                for (String path : List.of("", "dashboard.js", "api/queues", "api/settings",
                        "api/queue?queue=" + LIST_QUEUE)) {
                    HttpResponse<String> page = send(dashboard, "GET", path, authorization);
                    assertThat(page.statusCode()).as("GET %s with %s", path, authorization).isEqualTo(401);
                    assertThat(page.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                            challenge -> assertThat(challenge).startsWith("Basic realm="));
                    assertThat(page.body()).doesNotContain(LIST_QUEUE);
                }
                assertThat(send(dashboard, "POST", "api/purge", authorization).statusCode()).isEqualTo(401);
                assertThat(send(dashboard, "POST", "api/redrive", authorization).statusCode()).isEqualTo(401);
                assertThat(send(dashboard, "POST", "api/pause", authorization).statusCode()).isEqualTo(401);
            }
            // a wrong token: 401, then 429 while this address waits out its back-off
            for (String authorization : new String[] {"Bearer wrong", basic("ops", "wrong")}) {
                for (String path : List.of("", "api/queues", "api/queue?queue=" + LIST_QUEUE)) {
                    HttpResponse<String> page = send(dashboard, "GET", path, authorization);
                    assertThat(page.statusCode()).as("GET %s with %s", path, authorization).isIn(401, 429);
                    assertThat(page.body()).doesNotContain(LIST_QUEUE);
                }
                assertThat(send(dashboard, "POST", "api/purge", authorization).statusCode()).isIn(401, 429);
                assertThat(send(dashboard, "POST", "api/pause", authorization).statusCode()).isIn(401, 429);
            }
            assertThat(listCounts()).isEqualTo(before);
            assertThat(SampleQueues.listQueue(redis).stats().paused()).isFalse();

            await().atMost(Duration.ofSeconds(10)).until(
                    () -> send(dashboard, "GET", "api/queues", "Bearer " + TOKEN).body().contains(LIST_QUEUE));
            assertThat(send(dashboard, "GET", "", basic("any-user", TOKEN)).statusCode()).isEqualTo(200);
            assertThat(send(dashboard, "POST", "api/purge", "Bearer " + TOKEN).statusCode()).as("let in, and purged")
                    .isEqualTo(200);
            assertThat(SampleQueues.listQueue(redis).stats().ready()).isZero();
            assertThat(dashboard.toString()).doesNotContain(TOKEN);
        }
        assertThat(Files.readString(TEST_LOG, StandardCharsets.UTF_8)).doesNotContain(TOKEN)
                .contains("login with its token");
    }

    @Test
    void afterAWrongTokenTheAddressWaitsEvenWithTheRightOne() throws Exception {
        // a back-off no run of this test can outlast between its two requests
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client).token(TOKEN)
                .loginBackOff(Duration.ofHours(1))) {
            dashboard.start();
            assertThat(send(dashboard, "GET", "api/queues", "Bearer " + TOKEN).statusCode()).isEqualTo(200);

            HttpResponse<String> wrong = send(dashboard, "GET", "api/queues", "Bearer guess-0000000000000");
            HttpResponse<String> right = send(dashboard, "GET", "api/queues", "Bearer " + TOKEN);

            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(right.statusCode()).as("the token is not looked at during the back-off").isEqualTo(429);
            assertThat(right.headers().firstValue("Retry-After")).hasValue("3600");
            assertThat(right.body()).contains("wrong token").doesNotContain(LIST_QUEUE);
        }
    }

    @Test
    void theBackOffEnds() throws Exception {
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client).token(TOKEN)
                .loginBackOff(Duration.ofMillis(200))) {
            dashboard.start();

            assertThat(send(dashboard, "GET", "api/queues", "Bearer guess-0000000000000").statusCode()).isEqualTo(401);

            await().atMost(Duration.ofSeconds(10)).until(
                    () -> send(dashboard, "GET", "api/queues", "Bearer " + TOKEN).statusCode() == 200);
        }
    }

    @Test
    void aTokenShorterThan16CharactersIsRefusedNamingTheOption() {
        String shortToken = "fifteen-chars!!";

        assertThatThrownBy(() -> ReliableRedisDashboard.forClient(client).token(shortToken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token(String), --token-file or RELIABLE_REDIS_DASHBOARD_TOKEN")
                .hasMessageContaining("at least 16 characters, was 15").hasMessageNotContaining(shortToken);
        assertThatThrownBy(() -> ReliableRedisDashboard.forClient(client).token(" ".repeat(20)))
                .hasMessageContaining("must not be empty");
        assertThat(ReliableRedisDashboard.forClient(client).token(shortToken + "!").toString())
                .contains("token login");
    }

    @Test
    void withoutATokenItStartsOnANonLoopbackAddressOnlyWhenAllowed() throws Exception {
        ReliableRedisDashboard everywhere = ReliableRedisDashboard.forClient(client).bind("0.0.0.0", 0);

        assertThatThrownBy(everywhere::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("listen on 0.0.0.0 without a login")
                .hasMessageContaining("token(String), --token-file or RELIABLE_REDIS_DASHBOARD_TOKEN")
                .hasMessageContaining("allowNoLogin() (--allow-no-login)");
        assertThatThrownBy(everywhere::port).as("not listening").isInstanceOf(IllegalStateException.class);

        try (ReliableRedisDashboard allowed = ReliableRedisDashboard.forClient(client).bind("0.0.0.0", 0)
                .allowNoLogin();
                ReliableRedisDashboard withToken = ReliableRedisDashboard.forClient(client).bind("0.0.0.0", 0)
                        .token(TOKEN);
                ReliableRedisDashboard onLocalhost = ReliableRedisDashboard.forClient(client).bind("localhost", 0)) {
            allowed.start();
            withToken.start();
            onLocalhost.start();
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + allowed.port()
                    + "/api/settings")).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            assertThat(withToken.port()).isPositive();
            assertThat(onLocalhost.port()).isPositive();
        }
    }

    @Test
    void aReadOnlyDashboardShowsTheQueuesAndRefusesEveryActionWith403() throws Exception {
        QueueStats before = listCounts();
        try (ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client).readOnly()) {
            dashboard.start();

            assertThat(send(dashboard, "GET", "api/queues", null).body()).contains(LIST_QUEUE);
            assertThat(send(dashboard, "GET", "api/settings", null).body()).isEqualTo("{\"readOnly\":true}");
            HttpResponse<String> purge = send(dashboard, "POST", "api/purge", null);
            HttpResponse<String> redrive = send(dashboard, "POST", "api/redrive", null);

            assertThat(purge.statusCode()).isEqualTo(403);
            assertThat(purge.body()).contains("read-only");
            assertThat(redrive.statusCode()).isEqualTo(403);
            assertThat(send(dashboard, "POST", "api/pause", null).statusCode()).isEqualTo(403);
            assertThat(listCounts()).isEqualTo(before);
            assertThat(SampleQueues.listQueue(redis).stats().paused()).isFalse();
        }
    }

    private static HttpResponse<String> send(ReliableRedisDashboard dashboard, String method, String path,
            String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(dashboard.url() + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (method.equals("POST")) {
            request.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"queue\":\"" + LIST_QUEUE + "\"}"));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The list queue's counts, without its ages, which grow while the test runs. */
    private static QueueStats listCounts() {
        QueueStats stats = SampleQueues.listQueue(redis).stats();
        return new QueueStats(stats.ready(), stats.inflight(), stats.delayed(), stats.dead());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
