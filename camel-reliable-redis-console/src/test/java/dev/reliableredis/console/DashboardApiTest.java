package dev.reliableredis.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.reliableredis.console.SampleQueues.GROUP;
import static dev.reliableredis.console.SampleQueues.LIST_QUEUE;
import static dev.reliableredis.console.SampleQueues.STREAM_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DashboardApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Where the tests' log goes (simplelogger.properties). */
    private static final Path TEST_LOG = Path.of("target/test-logs.txt");

    private static RedisProcess redisServer;
    private static RedisClient client;
    private static RedisGateway redis;
    private static ReliableRedisDashboard dashboard;

    @BeforeAll
    static void startDashboard() {
        redisServer = RedisProcess.start();
        client = RedisClient.create(redisServer.uri());
        redis = RedisGateway.using(client, Duration.ofSeconds(5));
        dashboard = ReliableRedisDashboard.forClient(client).visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT);
        dashboard.start();
    }

    @AfterAll
    static void stopDashboard() {
        dashboard.close();
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
    void overviewHasEveryQueueWithItsCounts() throws Exception {
        HttpResponse<String> response = get("/api/queues");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        JsonNode overview = JSON.readTree(response.body());
        assertThat(overview.get("prefix").asText()).isEqualTo("rr");
        assertThat(overview.get("complete").asBoolean()).isTrue();
        JsonNode list = overview.get("queues").get(0);
        assertThat(list.get("queue").asText()).isEqualTo(LIST_QUEUE);
        assertThat(list.get("mode").asText()).isEqualTo("list");
        assertThat(list.get("group").isNull()).isTrue();
        assertCounts(list.get("counts"));
        JsonNode stream = overview.get("queues").get(1);
        assertThat(stream.get("queue").asText()).isEqualTo(STREAM_QUEUE);
        assertThat(stream.get("mode").asText()).isEqualTo("stream");
        assertThat(stream.get("group").asText()).isEqualTo(GROUP);
        assertCounts(stream.get("counts"));
        assertThat(overview.get("queues")).hasSize(2);
    }

    @Test
    void aGroupTheComponentCannotUseHasItsErrorInItsRow() throws Exception {
        // another program's group, with a name the component's group option does not allow
        redisServer.commands().xgroupCreate(XReadArgs.StreamOffset.from("rr:{" + STREAM_QUEUE + "}:stream", "0"),
                "bad group");

        // a dashboard of its own: the shared one may reuse a discovery made before the group existed
        try (ReliableRedisDashboard fresh = ReliableRedisDashboard.forClient(client)) {
            fresh.start();
            JsonNode queues = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(fresh.url() + "api/queues"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body()).get("queues");

            assertThat(queues).extracting(row -> row.get("group").asText())
                    .containsExactly("null", "bad group", GROUP);
            assertThat(queues.get(1).get("error").asText()).contains("group 'bad group' is not allowed");
            assertThat(queues.get(1).get("counts").isNull()).isTrue();
            assertCounts(queues.get(2).get("counts"));
        }
    }

    /** A queue another layout version wrote is refused as an endpoint refuses it, and nothing is written to it. */
    @Test
    void aQueueOfAnotherLayoutVersionHasTheRefusalInItsRowAndTheOthersStillShow() throws Exception {
        redisServer.commands().hset("rr:{" + LIST_QUEUE + "}:meta", "layout", "9");

        JsonNode queues = JSON.readTree(get("/api/queues").body()).get("queues");

        assertThat(queues.get(0).get("queue").asText()).isEqualTo(LIST_QUEUE);
        assertThat(queues.get(0).get("error").asText())
                .startsWith("Queue 'orders' has layout version 9 (rr:{orders}:meta)");
        assertThat(queues.get(0).get("counts").isNull()).isTrue();
        assertCounts(queues.get(1).get("counts"));
        assertThat(get("/api/queue?queue=" + LIST_QUEUE).statusCode()).isNotEqualTo(200);
        assertThat(redisServer.commands().hget("rr:{" + LIST_QUEUE + "}:meta", "layout")).isEqualTo("9");
    }

    @Test
    void aQueueAnotherProgramMalformedIsShownSoAndTheOthersStillShow() throws Exception {
        redisServer.commands().hset("rr:{" + LIST_QUEUE + "}:meta", "shards", "three");
        redisServer.commands().set("rr:{ledger}:meta", "not a hash");
        redisServer.commands().set("rr:{ledger}:seq", "1");

        // a dashboard of its own: the shared one may reuse a discovery made before the keys were written
        try (ReliableRedisDashboard fresh = ReliableRedisDashboard.forClient(client)) {
            fresh.start();
            HttpResponse<String> overview = HTTP.send(HttpRequest.newBuilder(URI.create(fresh.url() + "api/queues"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> details = HTTP.send(HttpRequest.newBuilder(URI.create(fresh.url()
                    + "api/queue?queue=" + LIST_QUEUE)).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> purge = HTTP.send(HttpRequest.newBuilder(URI.create(fresh.url() + "api/purge"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"queue\":\"" + LIST_QUEUE + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(overview.statusCode()).isEqualTo(200);
            JsonNode queues = JSON.readTree(overview.body()).get("queues");
            assertThat(queues).extracting(row -> row.get("queue").asText())
                    .containsExactly("ledger", LIST_QUEUE, STREAM_QUEUE);
            assertThat(queues.get(0).get("error").asText()).startsWith("malformed: ")
                    .contains("rr:{ledger}:meta is not a hash");
            assertThat(queues.get(0).get("counts").isNull()).isTrue();
            assertThat(queues.get(1).get("error").asText())
                    .isEqualTo("malformed: its rr:{orders}:meta hash records shards 'three', not a number from 1 to "
                               + "1024");
            assertThat(queues.get(1).get("counts").isNull()).isTrue();
            assertCounts(queues.get(2).get("counts"));
            assertThat(details.statusCode()).isEqualTo(409);
            assertThat(JSON.readTree(details.body()).get("error").asText()).contains("'orders' is malformed")
                    .contains("'three'");
            assertThat(purge.statusCode()).isEqualTo(409);
            assertThat(SampleQueues.listQueue(redis).stats().ready()).isEqualTo(3);
        }
    }

    @Test
    void aSectionAnotherProgramMalformedIsSaidSoAndTheOtherSectionsStillShow() throws Exception {
        redisServer.commands().del("rr:{" + LIST_QUEUE + "}:dead");
        redisServer.commands().set("rr:{" + LIST_QUEUE + "}:dead", "not a sorted set");

        HttpResponse<String> response = get("/api/queue?queue=" + LIST_QUEUE);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode details = JSON.readTree(response.body());
        assertThat(details.get("sections").get("ready")).extracting(m -> m.get("messageId").asText())
                .containsExactly(LIST_QUEUE + "-ready-1", LIST_QUEUE + "-ready-2", LIST_QUEUE + "-ready-3");
        assertThat(details.get("sections").get("delayed")).hasSize(1);
        assertThat(details.get("sections").get("dead")).isEmpty();
        assertThat(details.get("unreadable").get("dead").asText()).contains("WRONGTYPE");
        assertThat(details.get("counts").isNull()).isTrue();
        assertThat(details.get("unreadable").get("counts").asText()).contains("WRONGTYPE");
        assertThat(details.get("unreadable").has("ready")).isFalse();
    }

    @Test
    void detailsShowTheOldestMessagesOfEverySectionInBothModes() throws Exception {
        for (String query : new String[] {"queue=" + LIST_QUEUE, "queue=" + STREAM_QUEUE + "&group=" + GROUP}) {
            HttpResponse<String> response = get("/api/queue?" + query);

            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode details = JSON.readTree(response.body());
            String queue = details.get("queue").asText();
            assertCounts(details.get("counts"));
            JsonNode sections = details.get("sections");
            assertThat(sections.get("ready")).extracting(m -> m.get("messageId").asText())
                    .containsExactly(queue + "-ready-1", queue + "-ready-2", queue + "-ready-3");
            assertThat(sections.get("ready").get(0).get("preview").asText()).isEqualTo("{\"order\":5}");

            JsonNode inflight = sections.get("inflight").get(0);
            assertThat(inflight.get("messageId").asText()).isEqualTo(queue + "-inflight-1");
            assertThat(inflight.get("deliveries").asInt()).isEqualTo(1);
            assertThat(inflight.get("leaseAge").asLong()).isBetween(0L, 60_000L);
            assertThat(inflight.get("owner").isNull()).isEqualTo(queue.equals(LIST_QUEUE));

            JsonNode delayed = sections.get("delayed").get(0);
            assertThat(delayed.get("messageId").asText()).isEqualTo(queue + "-delayed-1");
            assertThat(delayed.get("dueIn").asLong()).isBetween(Duration.ofMinutes(50).toMillis(),
                    Duration.ofHours(1).toMillis());

            JsonNode dead = sections.get("dead");
            assertThat(dead).extracting(m -> m.get("messageId").asText())
                    .containsExactly(queue + "-dead-1", queue + "-dead-2");
            assertThat(dead.get(0).get("preview").asText()).isEqualTo(SampleQueues.XSS_BODY);
            assertThat(dead.get(0).get("failure").asText()).isEqualTo(SampleQueues.XSS_FAILURE);
            assertThat(dead.get(0).get("headers").get("note").asText()).isEqualTo("<script>alert(1)</script>");
            assertThat(dead.get(0).get("deliveries").asInt()).isEqualTo(1);
        }
        assertThat(get("/api/queue?queue=nosuchqueue").statusCode()).isEqualTo(404);
        assertThat(rawGet("/api/queue?queue=%zz", "127.0.0.1:" + dashboard.port())).startsWith("HTTP/1.1 400");
    }

    @Test
    void theReplyAddressOfARequestIsNotShown() throws Exception {
        String replyTo = new ReplyTo("inbox-1", "request-1", 30_000).header();
        SampleQueues.listQueue(redis).enqueue(new NewMessage("request", new byte[0],
                Map.of(ReplyTo.HEADER, replyTo, "note", "shown"), 0));

        HttpResponse<String> details = get("/api/queue?queue=" + LIST_QUEUE);

        JsonNode request = JSON.readTree(details.body()).get("sections").get("ready").get(3);
        assertThat(request.get("messageId").asText()).isEqualTo("request");
        assertThat(request.get("headers").get("note").asText()).isEqualTo("shown");
        assertThat(request.get("headers").has(ReplyTo.HEADER)).isFalse();
        assertThat(details.body()).doesNotContain("inbox-1").doesNotContain("request-1");
    }

    @Test
    void redriveOfOneMessageMovesThatDeadLetterOnly() throws Exception {
        String messageId = LIST_QUEUE + "-dead-2";
        HttpResponse<String> response =
                post("/api/redrive", "{\"queue\":\"" + LIST_QUEUE + "\",\"messageId\":\"" + messageId + "\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).get("moved").asLong()).isEqualTo(1);
        assertThat(SampleQueues.listQueue(redis).browse(QueueSection.DEAD, 10))
                .extracting(BrowsedMessage::messageId).containsExactly(LIST_QUEUE + "-dead-1");
        assertThat(SampleQueues.listQueue(redis).browse(QueueSection.READY, 10))
                .extracting(BrowsedMessage::messageId).last().isEqualTo(messageId);
        HttpResponse<String> again =
                post("/api/redrive", "{\"queue\":\"" + LIST_QUEUE + "\",\"messageId\":\"" + messageId + "\"}");
        assertThat(again.statusCode()).isEqualTo(404);
    }

    @Test
    void aDeadLetterOfAnEntryAnotherProgramWroteIsShownByItsFieldsAndRedrivenWithTheOthers() throws Exception {
        redisServer.commands().flushall();
        String entryId = redisServer.commands().xadd("rr:{" + STREAM_QUEUE + "}:stream", "order_id", "7");
        StreamQueue queue = SampleQueues.streamQueue(redis);
        assertThat(queue.nack(List.of(new Failure(queue.claim(1).get(0).lease(), "java.io.IOException: down"))))
                .containsExactly(Settled.DEAD_LETTERED);

        JsonNode dead = JSON.readTree(get("/api/queue?queue=" + STREAM_QUEUE + "&group=" + GROUP).body())
                .get("sections").get("dead");
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).get("messageId").asText()).isEqualTo(entryId);
        assertThat(dead.get(0).get("preview").asText()).isEqualTo("{\"order_id\":\"7\"}");

        HttpResponse<String> one = post("/api/redrive",
                "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\",\"messageId\":\"" + entryId + "\"}");
        assertThat(one.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(one.body()).get("error").asText()).contains("only 'Redrive dead' moves");
        HttpResponse<String> all =
                post("/api/redrive", "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\"}");
        assertThat(JSON.readTree(all.body()).get("moved").asLong()).isEqualTo(1);
        assertThat(queue.stats().ready()).isEqualTo(1);
    }

    @Test
    void redriveMovesEveryDeadLetterBackToReady() throws Exception {
        HttpResponse<String> list = post("/api/redrive", "{\"queue\":\"" + LIST_QUEUE + "\"}");
        HttpResponse<String> stream =
                post("/api/redrive", "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\"}");

        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(list.body()).get("moved").asLong()).isEqualTo(2);
        assertThat(JSON.readTree(stream.body()).get("moved").asLong()).isEqualTo(2);
        QueueStats listStats = SampleQueues.listQueue(redis).stats();
        assertThat(listStats.dead()).isZero();
        assertThat(listStats.ready()).isEqualTo(5);
        QueueStats streamStats = SampleQueues.streamQueue(redis).stats();
        assertThat(streamStats.dead()).isZero();
        assertThat(streamStats.ready()).isEqualTo(5);
    }

    @Test
    void purgeRemovesReadyDelayedAndDeadMessages() throws Exception {
        HttpResponse<String> response = post("/api/purge", "{\"queue\":\"" + LIST_QUEUE + "\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).get("removed").asLong()).isEqualTo(6);
        assertThat(Files.readString(TEST_LOG))
                .contains("Dashboard purged 6 message(s) of queue 'orders' for 127.0.0.1");
        QueueStats stats = SampleQueues.listQueue(redis).stats();
        assertThat(stats.ready()).isZero();
        assertThat(stats.delayed()).isZero();
        assertThat(stats.dead()).isZero();
        assertThat(stats.inflight()).isEqualTo(1);
    }

    @Test
    void pauseAndResumeActOnTheWholeQueueAndAreLogged() throws Exception {
        HttpResponse<String> pause = post("/api/pause",
                "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\",\"durationMs\":60000}");

        assertThat(pause.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(pause.body()).get("durationMs").asLong()).isEqualTo(60_000);
        assertThat(SampleQueues.streamQueue(redis).stats().paused()).isTrue();
        assertThat(redisServer.commands().pttl("rr:{" + STREAM_QUEUE + "}:paused")).isBetween(1L, 60_000L);
        assertThat(SampleQueues.listQueue(redis).stats().paused()).isFalse();
        assertThat(JSON.readTree(get("/api/queues").body()).findValues("paused")).extracting(JsonNode::asLong)
                .containsExactlyInAnyOrder(0L, 1L);

        HttpResponse<String> resume = post("/api/resume",
                "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"" + GROUP + "\"}");

        assertThat(JSON.readTree(resume.body()).get("wasPaused").asBoolean()).isTrue();
        assertThat(SampleQueues.streamQueue(redis).stats().paused()).isFalse();
        assertThat(Files.readString(TEST_LOG))
                .contains("Dashboard paused for 60000 ms of queue '" + STREAM_QUEUE + "' (group '" + GROUP + "')")
                .contains("Dashboard resumed of queue '" + STREAM_QUEUE + "'");
        HttpResponse<String> negative = post("/api/pause", "{\"queue\":\"" + LIST_QUEUE + "\",\"durationMs\":-5}");
        assertThat(negative.statusCode()).isEqualTo(400);
        assertThat(negative.body()).contains("-5");
        assertThat(SampleQueues.listQueue(redis).stats().paused()).isFalse();
    }

    @Test
    void aPauseWhoseLengthIsNotAWholeNumberOfMsInRangeIsRefusedAndPausesNothing() throws Exception {
        for (String duration : new String[] {"\"60000\"", "\"soon\"", "1.5", "1e3", "true", "{}", "[]", "-5",
                String.valueOf(DashboardApi.MAX_PAUSE.toMillis() + 1), "99999999999999999999", "NaN"}) {
            HttpResponse<String> pause = post("/api/pause",
                    "{\"queue\":\"" + LIST_QUEUE + "\",\"durationMs\":" + duration + "}");

            assertThat(pause.statusCode()).as(duration).isEqualTo(400);
            assertThat(JSON.readTree(pause.body()).get("error").asText()).as(duration)
                    .containsAnyOf("durationMs must be a whole number of ms from 0", "not valid JSON");
        }
        assertThat(SampleQueues.listQueue(redis).stats().paused()).isFalse();
        HttpResponse<String> longest = post("/api/pause", "{\"queue\":\"" + LIST_QUEUE + "\",\"durationMs\":"
                + DashboardApi.MAX_PAUSE.toMillis() + "}");
        assertThat(longest.statusCode()).isEqualTo(200);
        assertThat(redisServer.commands().pttl("rr:{" + LIST_QUEUE + "}:paused"))
                .isBetween(DashboardApi.MAX_PAUSE.toMillis() - 60_000, DashboardApi.MAX_PAUSE.toMillis());
    }

    @Test
    void idsAndGroupsWithLineBreaksCannotForgeALogLine() throws Exception {
        redisServer.commands().flushall();
        String forged = "Dashboard purged 99 message(s) of queue 'orders' for 10.0.0.1";
        String messageId = "m\n" + forged + "\r\u0085\u2028\u2029end";
        ListQueue queue = SampleQueues.listQueue(redis);
        queue.enqueue(new NewMessage(messageId, new byte[0], Map.of(), 0));
        assertThat(queue.nack(List.of(new Failure(queue.claim(1).get(0).lease(), "boom"))))
                .containsExactly(Settled.DEAD_LETTERED);
        // a group another program made, with a name the component refuses and repeats in its error
        String group = "g\n" + forged.replace("99", "77");
        redisServer.commands().xgroupCreate(XReadArgs.StreamOffset.from("rr:{" + STREAM_QUEUE + "}:stream", "0"),
                group, XGroupCreateArgs.Builder.mkstream());

        HttpResponse<String> redrive = post("/api/redrive", JSON.writeValueAsString(
                Map.of("queue", LIST_QUEUE, "messageId", messageId)));
        HttpResponse<String> purge = post("/api/purge", JSON.writeValueAsString(
                Map.of("queue", STREAM_QUEUE, "group", group)));

        assertThat(redrive.statusCode()).isEqualTo(200);
        assertThat(purge.statusCode()).isEqualTo(500);
        String log = Files.readString(TEST_LOG, StandardCharsets.UTF_8);
        assertThat(log).contains("Dashboard redrove the dead letter 'm\\n" + forged
                                 + "\\r\\u0085\\u2028\\u2029end' of queue 'orders'")
                .contains("g\\n" + forged.replace("99", "77"))
                .doesNotContain("\n" + forged).doesNotContain("\n" + forged.replace("99", "77"))
                .doesNotContain("\u0085").doesNotContain("\u2028").doesNotContain("\u2029");
        assertThat(log.lines()).noneMatch(line -> line.startsWith("Dashboard"));
    }

    @Test
    void refusesWhatIsNotAnActionOfTheDashboardsPage() throws Exception {
        HttpResponse<String> getOfAnAction = get("/api/purge");
        assertThat(getOfAnAction.statusCode()).isEqualTo(405);
        assertThat(getOfAnAction.headers().firstValue("Allow")).hasValue("POST");
        assertThat(post("/api/queues", "{}").statusCode()).isEqualTo(405);
        assertThat(send(HttpRequest.newBuilder(uri("/api/purge")).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"queue\":\"orders\"}"))).statusCode()).isEqualTo(415);
        assertThat(send(HttpRequest.newBuilder(uri("/api/purge")).header("Content-Type", "application/json")
                .header("Origin", "http://attacker.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"queue\":\"orders\"}"))).statusCode()).isEqualTo(403);
        assertThat(post("/api/purge", "not json").statusCode()).isEqualTo(400);
        assertThat(post("/api/purge", "{\"queue\":[1]}").statusCode()).isEqualTo(400);
        assertThat(post("/api/purge", "{}").statusCode()).isEqualTo(400);
        assertThat(post("/api/purge", "{\"queue\":\"" + "x".repeat(5000) + "\"}").statusCode()).isEqualTo(413);
        HttpResponse<String> unknown = post("/api/purge", "{\"queue\":\"nosuchqueue\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).get("error").asText()).contains("nosuchqueue");
        assertThat(post("/api/purge", "{\"queue\":\"" + STREAM_QUEUE + "\",\"group\":\"other\"}").statusCode())
                .isEqualTo(404);
        assertThat(get("/nothing-here").statusCode()).isEqualTo(404);

        assertThat(SampleQueues.listQueue(redis).stats().ready()).isEqualTo(3);
    }

    @Test
    void answersRequestsAddressedToLocalhostOnly() throws Exception {
        assertThat(rawGet("/api/queues", "localhost:" + dashboard.port())).startsWith("HTTP/1.1 200");
        // a DNS name that an attacker's page points at 127.0.0.1 (DNS rebinding)
        assertThat(rawGet("/api/queues", "attacker.example:" + dashboard.port())).startsWith("HTTP/1.1 403");
    }

    @Test
    void boundToAllAddressesItAnswersOnlyTheHostsItIsAllowed() throws Exception {
        try (ReliableRedisDashboard everywhere = ReliableRedisDashboard.forClient(client).bind("0.0.0.0", 0)
                .allowHosts("dashboard.internal").allowNoLogin()) {
            everywhere.start();
            assertThat(rawGet("/api/queues", "dashboard.internal:" + everywhere.port(), everywhere.port()))
                    .startsWith("HTTP/1.1 200");
            assertThat(rawGet("/api/queues", "localhost:" + everywhere.port(), everywhere.port()))
                    .startsWith("HTTP/1.1 200");
            assertThat(rawGet("/api/queues", "attacker.example:" + everywhere.port(), everywhere.port()))
                    .startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void servesThePageWithHeadersThatKeepScriptsOfOthersOut() throws Exception {
        HttpResponse<String> page = get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("script-src 'self'").contains("frame-ancestors 'none'");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.body()).contains("<script src=\"dashboard.js\"");
        assertThat(get("/dashboard.js").headers().firstValue("Content-Type"))
                .hasValue("text/javascript; charset=utf-8");
    }

    @Test
    void neverShowsThePasswordOfTheRedisUri() throws Exception {
        String password = "s3cret-pw";
        try (RedisProcess secured = RedisProcess.start("--requirepass", password);
                ReliableRedisDashboard withUri = ReliableRedisDashboard
                        .forUri("redis://:" + password + "@127.0.0.1:" + secured.port()).keyPrefix("rr")) {
            withUri.start();
            HttpResponse<String> overview = HTTP.send(HttpRequest.newBuilder(
                    URI.create(withUri.url() + "api/queues")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(withUri.url())).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(overview.statusCode()).isEqualTo(200);
            assertThat(overview.body()).doesNotContain(password);
            assertThat(page.body()).doesNotContain(password);
            assertThat(withUri.toString()).contains("127.0.0.1:" + secured.port()).doesNotContain(password);
        }
        // Lettuce's own message would repeat this URI, password included
        assertThatThrownBy(() -> ReliableRedisDashboard.forUri("redis://:" + password + "@[::1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining(password);
    }

    @Test
    void neverLogsThePasswordOfTheRedisUriWhenRedisRefusesIt() throws Exception {
        String wrongPassword = "wr0ng-pw";
        try (RedisProcess secured = RedisProcess.start("--requirepass", "s3cret-pw");
                ReliableRedisDashboard withUri = ReliableRedisDashboard
                        .forUri("redis://:" + wrongPassword + "@127.0.0.1:" + secured.port())) {
            withUri.start();
            HttpResponse<String> overview = HTTP.send(HttpRequest.newBuilder(
                    URI.create(withUri.url() + "api/queues")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(overview.statusCode()).isEqualTo(503);
            assertThat(overview.body()).contains("Redis failed").doesNotContain(wrongPassword);
        }
        assertThat(Files.readString(TEST_LOG)).contains("Dashboard request GET /api/queues failed")
                .doesNotContain(wrongPassword);
    }

    private static void assertCounts(JsonNode counts) {
        assertThat(counts.get("ready").asLong()).isEqualTo(3);
        assertThat(counts.get("inflight").asLong()).isEqualTo(1);
        assertThat(counts.get("delayed").asLong()).isEqualTo(1);
        assertThat(counts.get("dead").asLong()).isEqualTo(2);
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + dashboard.port() + path);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private static HttpResponse<String> post(String path, String json) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request with a Host header of our choosing, which java.net.http does not let a caller set. */
    private static String rawGet(String path, String host) throws IOException {
        return rawGet(path, host, dashboard.port());
    }

    private static String rawGet(String path, String host, int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
