package dev.reliableredis.console;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The overview while Redis does not answer: one wait for the command timeout, not one per queue. */
class DashboardOutageTest {

    @Test
    void afterTheFirstQueueRedisDoesNotAnswerTheOthersAreNotWaitedFor() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            RedisClient client = RedisClient.create(redis.uri());
            try (RedisGateway gateway = RedisGateway.using(client, Duration.ofSeconds(5));
                    ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(client)) {
                for (String name : new String[] {"a", "b", "c"}) {
                    Queues.shardCount(gateway, "rr", name, 1, null).check();
                    ListQueue.of(gateway, "rr", name, QueueSettings.defaults()).enqueue(
                            new NewMessage(name + "-1", new byte[0], null, 0));
                }
                dashboard.start();
                assertThat(overview(dashboard).get("queues")).hasSize(3);

                redis.pause();
                try {
                    JsonNode rows = overview(dashboard).get("queues");

                    assertThat(rows).hasSize(3);
                    assertThat(rows.get(0).get("error").asText()).isNotEmpty();
                    assertThat(rows.get(1).get("error").asText()).startsWith("not read: Redis did not answer");
                    assertThat(rows.get(2).get("error").asText()).startsWith("not read: Redis did not answer");
                } finally {
                    redis.resume();
                }
            } finally {
                client.shutdown();
            }
        }
    }

    private static JsonNode overview(ReliableRedisDashboard dashboard) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(dashboard.url() + "api/queues")).timeout(Duration.ofSeconds(30))
                        .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }
}
