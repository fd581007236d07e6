package dev.reliableredis.camel;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.reliableredis.queue.RateLimit;
import io.lettuce.core.cluster.RedisClusterClient;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad options and queue names fail when the endpoint is created, naming what is wrong; secrets stay hidden. */
class EndpointOptionsTest {

    private CamelContext context;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "visibilityTimeout, 0, visibilityTimeout must be more than 0 ms",
            "visibilityTimeout, -5, visibilityTimeout must be more than 0 ms, was -5 ms",
            "maxRetries, -1, maxRetries must be between 0 and 1000000, was -1",
            "maxRetries, 2147483647, maxRetries must be between 0 and 1000000, was 2147483647",
            "retryDelay, -1, retryDelay must be 0 ms or more",
            "retryBackoffMultiplier, 0.5, retryBackoffMultiplier must be a number of at least 1.0, was 0.5",
            "maxRetryDelay, 10, maxRetryDelay (10 ms) must not be less than retryDelay (1000 ms)",
            "concurrentConsumers, 0, concurrentConsumers must be between 1 and 1000, was 0",
            "concurrentConsumers, 1001, concurrentConsumers must be between 1 and 1000, was 1001",
            "maxMessagesPerPoll, 0, maxMessagesPerPoll must be between 1 and 1000, was 0",
            "maxMessagesPerPoll, 10000, maxMessagesPerPoll must be between 1 and 1000, was 10000",
            "reaperInterval, 0, reaperInterval must be more than 0 ms",
            "pollTimeout, 0, pollTimeout must be more than 0 ms",
            "visibilityTimeout, soon, visibilityTimeout",
            "reaperBatchSize, 0, reaperBatchSize must be between 1 and 1000, was 0",
            "reaperBatchSize, 8001, reaperBatchSize must be between 1 and 1000, was 8001",
            "idempotencyWindow, -1, idempotencyWindow must be 0 ms or more",
            "commandTimeout, 0, commandTimeout must be more than 0 ms",
            "mode, queue, mode must be 'list' or 'stream', was 'queue'",
            "keyPrefix, 'a{b', keyPrefix 'a{b' is not allowed",
            "maxRetries, lots, maxRetries",
            "waitReplicas, -1, waitReplicas must be 0 (off) or more, was -1",
            "waitTimeout, 0, waitTimeout must be more than 0 ms, was 0 ms",
            "shards, 0, shards must be between 1 and 1024, was 0",
            "shards, 1025, shards must be between 1 and 1024, was 1025",
            "shards, many, shards",
            "maxInflight, -1, maxInflight must be 0 (no cap) or more, was -1",
            "maxInflight, 3&shards=2, maxInflight=3 cannot be combined with shards=2",
            "maxRetryAfter, 0, maxRetryAfter must be more than 0 ms, was 0 ms",
            "rateLimit, 100, rateLimit must be <messages>/<period> with at least 1 message and a period of 1 ms or more",
            "rateLimit, 0/1s, was '0/1s'",
            "rateLimit, 10/0, was '10/0'",
            "rateLimit, ten/1s, was 'ten/1s'",
            "rateLimit, 10/soon, was '10/soon'",
            "rateLimitBurst, 0, rateLimitBurst must be between 1 and 1000, was 0",
            "timeToLive, -1, timeToLive must be 0 ms (none) to 1209600000 ms (14 days), was -1 ms",
            "timeToLive, 1209600001, timeToLive must be 0 ms (none) to 1209600000 ms (14 days), was 1209600001 ms",
            "requestTimeout, 0, requestTimeout must be more than 0 ms and at most 86400000 ms (24 hours), was 0 ms",
            "requestTimeout, 25h, at most 86400000 ms (24 hours), was 90000000 ms",
            "expiredMessages, keep, expiredMessages must be 'deadLetter' or 'drop', was 'keep'",
            "priorityMode, fair, priorityMode must be 'weighted' or 'strict', was 'fair'",
            "groupOnDeadLetter, skip, groupOnDeadLetter must be 'continue' or 'block', was 'skip'",
            "rateLimit, 10/1s&shards=2, rateLimit=10/1s cannot be combined with shards=2",
            "slotGroup, 'a{b', slotGroup 'a{b' is not allowed",
            "slotGroup, flow&shards=2, shards=2 cannot be combined with slotGroup=flow",
    })
    void aBadOptionValueFailsAtEndpointCreationNamingIt(String option, String value, String message) {
        assertCreationFails("reliable-redis:orders?" + option + "=" + value, message);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "visibilityTimeout, 30000, 30000",
            "visibilityTimeout, 30s, 30000",
            "visibilityTimeout, 1m30s, 90000",
            "retryDelay, 250, 250",
            "retryDelay, 2s, 2000",
            "maxRetryDelay, 1h, 3600000",
            "reaperInterval, 1s, 1000",
            "pollTimeout, 5s, 5000",
            "idempotencyWindow, 5m, 300000",
            "commandTimeout, 10s, 10000",
            "waitTimeout, 500ms, 500",
    })
    void aTimeOptionTakesMillisecondsOrCamelsDurationSyntax(String option, String value, long millis) {
        ReliableRedisEndpoint endpoint = context.getEndpoint("reliable-redis:orders?" + option + "=" + value,
                ReliableRedisEndpoint.class);
        ReliableRedisConfiguration configuration = endpoint.getConfiguration();
        long set = switch (option) {
            case "visibilityTimeout" -> configuration.getVisibilityTimeout();
            case "retryDelay" -> configuration.getRetryDelay();
            case "maxRetryDelay" -> configuration.getMaxRetryDelay();
            case "reaperInterval" -> configuration.getReaperInterval();
            case "pollTimeout" -> configuration.getPollTimeout();
            case "idempotencyWindow" -> configuration.getIdempotencyWindow();
            case "waitTimeout" -> configuration.getWaitTimeout();
            default -> configuration.getCommandTimeout();
        };
        assertThat(set).isEqualTo(millis);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "'orders{1}'| character '{' at position 6",
            "'a b'| character ' ' at position 1",
            "'a}b'| character '}' at position 1",
            "'ä'| character 'ä' at position 0",
    })
    void aBadQueueNameFailsAtEndpointCreationNamingTheCharacter(String name, String message) {
        assertCreationFails("reliable-redis:" + name, message);
    }

    @Test
    void aQueueNameOfMoreThan200CharactersIsRefused() {
        assertCreationFails("reliable-redis:" + "x".repeat(10_000),
                "Queue name is 10000 characters long; at most 200 are allowed");
    }

    @Test
    void everyAllowedCharacterIsAccepted() {
        Endpoint endpoint = context.getEndpoint("reliable-redis:Orders.v2_eu:west-1");
        assertThat(((ReliableRedisEndpoint) endpoint).getQueueName()).isEqualTo("Orders.v2_eu:west-1");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "group, 'a b', group 'a b' is not allowed",
            "consumerName, 'x{y}', consumerName 'x{y}' is not allowed",
            "groupStartId, 5, groupStartId must be '0' or '$', was '5'",
            "maxLen, -1, maxLen must be 0 (off) or more, was -1",
            "streamKey, same&deadLetterKey=same, streamKey and deadLetterKey must differ",
    })
    void aBadStreamOptionFailsAtEndpointCreationNamingIt(String option, String value, String message) {
        assertCreationFails("reliable-redis:orders?mode=stream&" + option + "=" + value, message);
    }

    @Test
    void aRateLimitIsMessagesPerACamelDuration() {
        ReliableRedisEndpoint endpoint = context.getEndpoint("reliable-redis:orders?rateLimit=5/1m30s&rateLimitBurst=3",
                ReliableRedisEndpoint.class);

        assertThat(endpoint.getConfiguration().queueSettings().rateLimit())
                .isEqualTo(new RateLimit(5, Duration.ofSeconds(90), 3));
        assertThat(context.getEndpoint("reliable-redis:orders", ReliableRedisEndpoint.class).getConfiguration()
                .queueSettings().rateLimit().isOn()).as("off by default").isFalse();
    }

    @Test
    void waitReplicasNeedsAWaitTimeoutBelowTheCommandTimeout() {
        assertCreationFails("reliable-redis:orders?waitReplicas=1&waitTimeout=10s",
                "waitTimeout (10000 ms) must be less than commandTimeout (10000 ms)");
        assertThat(context.getEndpoint("reliable-redis:orders?waitTimeout=10s")).as("no WAIT without waitReplicas")
                .isNotNull();
    }

    @Test
    void theComponentsWaitOptionsAreEveryEndpointsDefaults() {
        ReliableRedisComponent component = context.getComponent("reliable-redis", ReliableRedisComponent.class);
        component.setWaitReplicas(2);
        component.setWaitTimeout(500);

        ReliableRedisConfiguration inherited = context.getEndpoint("reliable-redis:orders",
                ReliableRedisEndpoint.class).getConfiguration();
        ReliableRedisConfiguration own = context.getEndpoint("reliable-redis:invoices?waitReplicas=0",
                ReliableRedisEndpoint.class).getConfiguration();

        assertThat(inherited.getWaitReplicas()).isEqualTo(2);
        assertThat(inherited.getWaitTimeout()).isEqualTo(500);
        assertThat(own.getWaitReplicas()).isZero();
    }

    @Test
    void waitReplicasIsRefusedWithAClusterClient() {
        RedisClusterClient cluster = RedisClusterClient.create("redis://127.0.0.1:7000");
        try {
            context.getRegistry().bind("cluster", cluster);
            assertCreationFails("reliable-redis:orders?redisClient=#cluster&waitReplicas=1",
                    "waitReplicas is not supported on a Redis Cluster");
        } finally {
            cluster.shutdown();
        }
    }

    @Test
    void anInvalidRedisUriIsRefusedWithoutShowingItsPassword() {
        assertCreationFails("reliable-redis:orders?redisUri=RAW(http://user:hunter2@x)", "is not a valid Redis URI")
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("hunter2"));
    }

    @Test
    void passwordsAppearNeitherInToStringNorInTheEndpointUri() {
        Endpoint inUri = context.getEndpoint("reliable-redis:orders?redisUri=RAW(redis://app:hunter2@localhost:6379)");
        Endpoint asOption = context.getEndpoint("reliable-redis:invoices?password=hunter3");

        assertThat(inUri.toString()).doesNotContain("hunter2").contains("orders");
        assertThat(asOption.toString()).doesNotContain("hunter3").contains("invoices");
        assertThat(org.apache.camel.util.URISupport.sanitizeUri(inUri.getEndpointUri())).doesNotContain("hunter2");
        assertThat(org.apache.camel.util.URISupport.sanitizeUri(asOption.getEndpointUri())).doesNotContain("hunter3");
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void anInvalidRedisUriIsRefusedWithoutShowingItsPasswordWhateverItHolds(String character) {
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:orders?redisUri=RAW(http://app:s3cr" + character
                                                     + "et@x)"))
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("s3cr"));
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"#", "/", "?"})
    void aPasswordHoldingACharacterThatEndsTheHostInTheUriIsRefusedAndToldHowToWriteIt(String character) {
        // Lettuce would read redis://app:s3cr#et@localhost as host app:s3cr, cutting the password there
        assertThatThrownBy(() -> context.getEndpoint("reliable-redis:orders?redisUri=RAW(redis://app:s3cr" + character
                                                     + "et@localhost:6379)"))
                .hasStackTraceContaining("redisUri 'redis://xxxxxx@localhost:6379' has a password (or user name) "
                                         + "holding /, ? or #: write them percent-encoded")
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("s3cr"));
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void noPasswordShowsInToStringWhateverItHolds(String character) {
        String encoded = URLEncoder.encode("s3cr" + character + "et", StandardCharsets.UTF_8);
        Endpoint inUri = context.getEndpoint("reliable-redis:orders?redisUri=RAW(redis://app:" + encoded
                                             + "@localhost:6379/2)&maxRetries=7");
        Endpoint onlyPassword = context.getEndpoint("reliable-redis:invoices?redisUri=RAW(redis://" + encoded
                                                    + "@localhost:6379)");
        Endpoint asOption = context.getEndpoint("reliable-redis:payments?password=RAW(s3cr" + character + "et)");

        assertThat(inUri.toString())
                .isEqualTo("reliable-redis://orders?maxRetries=7&redisUri=redis://localhost:6379/2");
        assertThat(onlyPassword.toString()).isEqualTo("reliable-redis://invoices?redisUri=redis://localhost:6379");
        assertThat(asOption.toString()).isEqualTo("reliable-redis://payments?password=xxxxxx");
    }

    @Test
    void aPasswordWithAnAmpersandNeedsNoEncodingInTheUri() {
        ReliableRedisEndpoint endpoint = (ReliableRedisEndpoint) context.getEndpoint(
                "reliable-redis:orders?redisUri=RAW(redis://app:s3cr&et@localhost:6379)");

        assertThat(endpoint.toString()).isEqualTo("reliable-redis://orders?redisUri=redis://localhost:6379");
        // through the credentials provider: RedisURI.getPassword() is gone in Lettuce 7, which CI runs this on too
        assertThat(RedisUris.parse(endpoint.getConfiguration().getRedisUri(), null, null).get(0)
                .getCredentialsProvider().resolveCredentials().block().getPassword())
                .isEqualTo("s3cr&et".toCharArray());
    }

    private static String stackTrace(Throwable e) {
        var out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    /** Creating the endpoint fails, and its exception or one of its causes says the message. */
    private AbstractThrowableAssert<?, ? extends Throwable> assertCreationFails(String uri, String message) {
        return assertThatThrownBy(() -> context.getEndpoint(uri)).hasStackTraceContaining(message);
    }
}
