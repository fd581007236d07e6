package dev.reliableredis.console;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.LeastPrivilegeUser;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static dev.reliableredis.console.SampleQueues.GROUP;
import static dev.reliableredis.console.SampleQueues.LIST_QUEUE;
import static dev.reliableredis.console.SampleQueues.STREAM_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard as a Redis user with only the rule the user guide gives it: the component's rule plus SCAN. */
class DashboardAclTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String USER = "dashboard";
    private static final String PASSWORD = "dashboard-pw";

    @Test
    void everyPageAndActionWorksWithTheDashboardsRule() throws Exception {
        try (RedisProcess server = RedisProcess.start()) {
            RedisCommands<String, String> admin = server.commands();
            LeastPrivilegeUser.create(admin, USER, PASSWORD,
                    LeastPrivilegeUser.RULE + " " + LeastPrivilegeUser.DASHBOARD_RULE);
            RedisClient adminClient = RedisClient.create(server.uri());
            RedisURI asUser = RedisURI.create(server.uri());
            asUser.setCredentialsProvider(new StaticCredentialsProvider(USER, PASSWORD.toCharArray()));
            RedisClient userClient = RedisClient.create(asUser);
            try (RedisGateway filler = RedisGateway.using(adminClient, Duration.ofSeconds(5));
                 ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(userClient)
                         .visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT)) {
                SampleQueues.fill(filler);
                admin.aclLogReset();
                dashboard.start();

                JsonNode queues = JSON.readTree(request(dashboard, "api/queues", null).body()).get("queues");
                assertThat(queues).extracting(row -> row.get("queue").asText())
                        .containsExactly(LIST_QUEUE, STREAM_QUEUE);
                assertThat(queues).allSatisfy(row -> assertThat(row.get("counts").get("dead").asLong()).isEqualTo(2));
                for (String query : new String[] {"queue=" + LIST_QUEUE, "queue=" + STREAM_QUEUE + "&group=" + GROUP}) {
                    JsonNode details = JSON.readTree(request(dashboard, "api/queue?" + query, null).body());
                    assertThat(details.get("sections").get("dead")).hasSize(2);
                }
                String stream = "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\"}";
                assertThat(JSON.readTree(request(dashboard, "api/redrive", stream).body()).get("moved").asLong())
                        .isEqualTo(2);
                String list = "{\"queue\":\"" + LIST_QUEUE + "\"}";
                assertThat(JSON.readTree(request(dashboard, "api/purge", list).body()).get("removed").asLong())
                        .isEqualTo(6);

                assertThat(LeastPrivilegeUser.refusals(admin, USER)).allMatch(LeastPrivilegeUser::refusedOnPurpose);
            } finally {
                userClient.shutdown();
                adminClient.shutdown();
            }
        }
    }

    /** A GET, or a POST of the JSON when there is one. */
    private static HttpResponse<String> request(ReliableRedisDashboard dashboard, String path, String json)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(dashboard.url() + path))
                .timeout(Duration.ofSeconds(10));
        if (json != null) {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response;
    }
}
