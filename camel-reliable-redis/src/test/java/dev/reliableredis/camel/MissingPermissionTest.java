package dev.reliableredis.camel;

import java.time.Duration;

import dev.reliableredis.queue.QueueException;
import dev.reliableredis.testsupport.LeastPrivilegeUser;
import dev.reliableredis.testsupport.RedisProcess;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis user that lacks one permission of the least-privilege rule: the consumer's outage (its health check, its
 * exception handler) and the producer's failed send name what is missing, also where Redis itself does not (a
 * command refused inside a script, before Redis 7.2).
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class MissingPermissionTest extends CamelRedisTestBase {

    private static final String USER = "lacking";
    private static final String PASSWORD = "lacking-pw";
    private static final Duration FEW_SECONDS = Duration.ofSeconds(10);

    @Test
    void aConsumerThatMayNotRunACommandOfItsClaimScriptIsDownNamingTheCommandUntilItMay() throws Exception {
        // a command the claim script runs on every call, also on an empty queue
        String missing = streamMode() ? "xreadgroup" : "llen";
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.without("+" + missing));

        assertThat(consumerDownReason()).contains("the Redis user lacks a permission the component needs (ACL)")
                .containsIgnoringCase("'" + missing + "'")
                .contains(streamMode() ? "stream/claim.lua, line " : "list/claim.lua, line ");

        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.RULE);
        awaitState("consumer:consume", HealthCheck.State.UP, FEW_SECONDS);
        template.sendBody(lackingUsersEndpoint(), "once permitted");
        awaitReceived(1);
    }

    @Test
    void aConsumerThatMayNotRunACommandItSendsItselfIsDownNamingTheCommand() throws Exception {
        // list mode waits with BLPOP; stream mode creates its missing group with XGROUP CREATE
        String missing = streamMode() ? "xgroup|create" : "blpop";
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.without("+" + missing));

        assertThat(consumerDownReason()).contains("the Redis user lacks a permission the component needs (ACL)")
                .contains("NOPERM", "'" + missing + "'");
    }

    @Test
    void aConsumerThatMayNotUseTheQueuesKeysIsDownNamingThem() throws Exception {
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.RULE.replace("~rr:*", "~other:*"));

        assertThat(consumerDownReason()).contains("the Redis user lacks a permission the component needs (ACL)")
                .contains("NOPERM", "its keys: rr:{q}:");
    }

    @Test
    void aSendOfAUserThatMayNotRunScriptsFailsNamingTheCommand() {
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.without("+evalsha"));

        Exchange sent = template.request(lackingUsersEndpoint(), e -> e.getMessage().setBody("refused"));

        assertThat(sent.getException()).isInstanceOf(QueueException.class)
                .hasMessageStartingWith("enqueue on queue 'q' failed: NOPERM")
                .hasMessageContaining("'evalsha'").hasMessageNotContaining(PASSWORD);
    }

    @Test
    void onRedis62ACommandRefusedInsideAScriptIsNamedByTheScriptsLine() {
        try (RedisProcess redis62 = RedisProcess.startRedis62()) {
            LeastPrivilegeUser.create(redis62.commands(), "camel62", PASSWORD, LeastPrivilegeUser.RULE);
            LeastPrivilegeUser.create(redis62.commands(), USER, PASSWORD, LeastPrivilegeUser.without("+hset"));
            String on62 = "reliable-redis:q?mode=" + mode + "&password=" + PASSWORD + "&redisUri=" + redis62.uri();

            Exchange allowed = template.request(on62 + "&username=camel62", e -> e.getMessage().setBody("stored"));
            Exchange refused = template.request(on62 + "&username=" + USER, e -> e.getMessage().setBody("refused"));

            assertThat(allowed.getException()).as("the rule on Redis 6.2").isNull();
            assertThat(refused.getException()).isInstanceOf(QueueException.class)
                    .hasMessageContaining("The user executing the script can't run this command")
                    .hasMessageMatching("(?s).*enqueue\\.lua, line \\d+: .*redis\\.call\\('HSET'.*");
        }
    }

    @Test
    void withoutTheOptionalClientCommandsAConsumerStillConsumesAndStopsAtOnce() throws Exception {
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.without("+client|id", "+client|unblock"));
        consumeOneAsTheLackingUser();

        // list mode ends the waiting claim by closing its connection instead of CLIENT UNBLOCK
        long started = System.nanoTime();
        context.getRouteController().stopRoute("consume");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(context.getRouteController().getRouteStatus("consume").isStopped()).isTrue();
    }

    @Test
    void withoutPingOnlyTheProducersHealthCheckFails() throws Exception {
        HealthCheckHelper.getHealthCheckRepository(context, "producers").setEnabled(true);
        LeastPrivilegeUser.create(raw, USER, PASSWORD, LeastPrivilegeUser.without("+ping"));
        consumeOneAsTheLackingUser();
        ReliableRedisEndpoint producing = context.getEndpoint(lackingUsersEndpoint(), ReliableRedisEndpoint.class);
        String check = "producer:reliable-redis-" + producing.getId();

        HealthCheck.Result down = awaitState(check, HealthCheck.State.DOWN, FEW_SECONDS);

        assertThat(down.getMessage()).hasValueSatisfying(message -> assertThat(message)
                .contains("lacks a permission the component needs (ACL)", "NOPERM", "'ping'"));
    }

    /** Starts a consumer as the lacking user; the reason its health check gives for the outage that follows. */
    private String consumerDownReason() throws Exception {
        startConsumerAsTheLackingUser();
        HealthCheck.Result down = await("an outage").atMost(FEW_SECONDS).until(() -> result("consumer:consume")
                .orElseThrow(), result -> result.getState() == HealthCheck.State.DOWN
                                          && result.getMessage().orElse("").startsWith("Redis calls for queue"));
        assertThat(received).isEmpty();
        return down.getMessage().orElseThrow();
    }

    /** Starts a consumer as the lacking user, sends it a message and waits until it has consumed and acked it. */
    private void consumeOneAsTheLackingUser() throws Exception {
        startConsumerAsTheLackingUser();
        template.sendBody(lackingUsersEndpoint(), "consumed");
        awaitReceived(1);
        awaitStats("q", 0, 0, 0, 0);
    }

    /** The route "consume", from the queue as the lacking user. */
    private void startConsumerAsTheLackingUser() throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(lackingUsersEndpoint()).routeId("consume").process(received::add);
            }
        });
    }

    private String lackingUsersEndpoint() {
        return "reliable-redis:q?mode=" + mode + "&username=" + USER + "&password=" + PASSWORD;
    }
}
