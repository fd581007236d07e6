package dev.reliableredis.camel;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The rows of the bad-input table in docs/reliability.md: each gets a clear error or a documented outcome. */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class BadInputTest extends CamelRedisTestBase {

    private void consume(String queue) throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:" + queue + "?mode=" + mode + "&reaperInterval=100").process(received::add);
            }
        });
    }

    @Test
    void aNullBodyAndAnEmptyBodyAreDeliveredAsEmptyBodies() throws Exception {
        consume("q");
        send("q", null);
        send("q", "");

        awaitReceived(2);
        assertThat(received).extracting(e -> e.getMessage().getBody(byte[].class)).containsOnly(new byte[0]);
    }

    @Test
    void aBodyCamelCannotTurnIntoBytesFailsTheSendAndStoresNothing() {
        Exchange result = template.request("reliable-redis:q?mode=" + mode,
                e -> e.getMessage().setBody(new Object() {
                    @Override
                    public String toString() {
                        throw new IllegalStateException("not convertible");
                    }
                }));

        assertThat(result.getException()).isNotNull();
        assertThat(stats("q")).containsEntry("ready", 0L);
    }

    @Test
    void aFiftyMegabyteBodyRoundTrips() throws Exception {
        consume("big");
        byte[] body = new byte[50 * 1024 * 1024];
        new Random(50).nextBytes(body);
        send("big", body);

        await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == 1);
        assertThat(received.get(0).getMessage().getBody(byte[].class)).isEqualTo(body);
    }

    @Test
    void headersAnotherProgramBrokeAreDroppedAndTheMessageStillDelivered() throws Exception {
        if (streamMode()) {
            raw.xadd(key("q", "stream"), Map.of("id", "forged", "body", "body", "headers", "{not json"));
        } else {
            String id = send("q", "body", Map.of("k", "v"));
            raw.hset(key("q", "messages"), id, "1700000000000|9|{not jsonbody");
        }
        consume("q");

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("body");
        assertThat(received.get(0).getMessage().getHeaders()).doesNotContainKey("k").doesNotContainKey("headers");
        awaitStats("q", 0, 0, 0, 0);
    }

    @Test
    void camelHeadersInAnyCaseThatAnotherProgramWroteDoNotReachTheRoute() throws Exception {
        // a retry-after that reached the route would make the message retry forever without using an attempt
        String headers = "{\"cAMELReliableRedisRetryAfter\":[\"Long\",\"60000\"],"
                         + "\"CAMELFileName\":[\"String\",\"/etc/passwd\"],\"cAmElExecCommandArgs\":[\"String\",\"-rf\"],"
                         + "\"ORG.apache.CAMEL.x\":[\"String\",\"x\"],\"customer\":[\"String\",\"ACME\"]}";
        if (streamMode()) {
            raw.xadd(key("q", "stream"), Map.of("id", "forged", "body", "body", "headers", headers));
        } else {
            String id = send("q", "body");
            raw.hset(key("q", "messages"), id, "1700000000000|" + headers.length() + "|" + headers + "body");
        }
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode + "&maxRetries=0").process(e -> {
                    received.add(e);
                    throw new IllegalStateException("fails once");
                });
            }
        });

        awaitReceived(1);
        assertThat(received.get(0).getMessage().getHeaders()).containsEntry("customer", "ACME").doesNotContainKeys(
                ReliableRedisConstants.RETRY_AFTER, "CamelFileName", "CamelExecCommandArgs", "org.apache.camel.x");
        awaitStats("q", 0, 0, 0, 1);
    }

    @Test
    void idsAndHeaderValuesWithLineBreaksAreLoggedOnOneLine() throws Exception {
        String forged = "forged-" + mode + "\nFORGED\r\u0085\u2028\u2029 line";
        String escaped = "forged-" + mode + "\\nFORGED\\r\\u0085\\u2028\\u2029 line";
        routes(new RouteBuilder() {
            public void configure() {
                from("reliable-redis:q?mode=" + mode).process(received::add)
                        .setHeader(ReliableRedisConstants.RETRY_AFTER, constant("soon\u2028FORGED"));
            }
        });
        send("q", "first", Map.of(ReliableRedisConstants.DEDUPLICATION_ID, forged));
        send("q", "again", Map.of(ReliableRedisConstants.DEDUPLICATION_ID, forged));

        awaitReceived(1);
        await().untilAsserted(() -> assertThat(TestLog.text())
                .contains("Message '" + escaped + "' is already known to queue 'q'")
                .contains("The header " + ReliableRedisConstants.RETRY_AFTER + " of message '" + escaped
                          + "' is 'soon\\u2028FORGED'"));
        assertThat(TestLog.text()).doesNotContain(forged).doesNotContain("soon\u2028FORGED");
    }

    @Test
    void aMalformedRecordIsDeadLetteredSayingWhatIsWrongAndTheOthersAreDelivered() throws Exception {
        send("q", "first");
        String bad = "forged";
        if (streamMode()) {
            raw.xadd(key("q", "stream"), "body", "broken", "id", bad, "expires", "tomorrow");
        } else {
            bad = send("q", "broken");
            raw.hset(key("q", "messages"), bad, "1700000000000|x|{}broken");
        }
        send("q", "last");
        consume("q");

        awaitStats("q", 0, 0, 0, 1);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class)).containsExactly("first", "last");
        assertThat(failureOf("q", bad)).isEqualTo(streamMode() ? "malformed record: expires 'tomorrow' is not a number"
                : "malformed record: headers length 'x' is not a number");
    }

    @Test
    void aKeyOfTheWrongTypeStopsThatQueueOnlyAndConsumptionResumesOnceItIsRepaired() throws Exception {
        String broken = key("q", streamMode() ? "stream" : "ready");
        raw.set(broken, "garbage");
        consume("q");
        consume("other");
        Exchange refused = template.request("reliable-redis:q?mode=" + mode, e -> e.getMessage().setBody("x"));
        send("other", "fine");

        awaitReceived(1);
        assertThat(refused.getException()).hasMessageContaining("queue 'q'").hasMessageContaining("WRONGTYPE");
        raw.del(broken);
        send("q", "after repair");
        awaitReceived(2);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class))
                .containsExactly("fine", "after repair");
    }

    @Test
    void anEnqueueRefusedForLackOfMemoryFailsTheExchangeAndLeavesNothingHalfWritten() throws Exception {
        try (RedisProcess full = RedisProcess.start("--maxmemory", "3mb", "--maxmemory-policy", "noeviction")) {
            String uri = "reliable-redis:oom?mode=" + mode + "&redisUri=" + full.uri();
            byte[] body = new byte[200 * 1024];
            Exchange failed = null;
            String failedId = null;
            for (int i = 0; i < 100 && failed == null; i++) {
                String id = "m" + i;
                Exchange sent = template.request(uri, e -> {
                    e.getMessage().setBody(body);
                    e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
                });
                if (sent.getException() != null) {
                    failed = sent;
                    failedId = id;
                }
            }

            assertThat(failed).as("an enqueue refused by Redis").isNotNull();
            assertThat(failed.getException()).hasMessageContaining("enqueue on queue 'oom' failed")
                    .hasMessageContaining("OOM");
            var redis = full.commands();
            if (streamMode()) {
                assertThat(redis.hexists("rr:{oom}:ids", failedId)).isFalse();
                assertThat(redis.xlen("rr:{oom}:stream")).isEqualTo(Long.parseLong(failedId.substring(1)));
            } else {
                assertThat(redis.hexists("rr:{oom}:messages", failedId)).isFalse();
                assertThat(redis.llen("rr:{oom}:ready")).isEqualTo(Long.parseLong(failedId.substring(1)));
            }
        }
    }
}
