package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The list-mode claimer: BLPOP on the wake list with the claim written behind it on the same connection. */
class ListClaimerTest extends QueueTestBase {

    private static final Duration LONG_WAIT = Duration.ofSeconds(60);

    @Test
    void aWaitingClaimerClaimsAMessageThatArrivesDuringItsWait() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        try (Claimer claimer = claimerOf(q)) {
            List<Delivery> claimed = claimArrivingMessage(q, claimer);
            assertThat(claimed).extracting(Delivery::messageId).containsExactly("m1");
            assertThat(claimed.get(0).deliveryCount()).isEqualTo(1);
            assertThat(q.stats().inflight()).isEqualTo(1);
        }
    }

    @Test
    void wakingAWaitingClaimerEndsItsWaitWithoutCuttingItsConnection() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        q.stats();
        try (Claimer claimer = claimerOf(q)) {
            CompletableFuture<List<Delivery>> claim = waitingClaim(claimer);
            long clients = connectedClients();

            claimer.wakeUp();

            assertThat(claim.get(10, TimeUnit.SECONDS)).as("the claim behind the ended wait found nothing").isEmpty();
            assertThat(connectedClients()).as("the wait ended, not the connection").isEqualTo(clients);
            assertThat(claim(claimer)).as("a woken claimer claims no more").isEmpty();
        }
    }

    @Test
    void aClaimerWhoseConnectionWasKilledRecoversOnItsNextClaim() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        try (Claimer claimer = claimerOf(q)) {
            CompletableFuture<List<Delivery>> claim = waitingClaim(claimer);
            raw.clientKill(KillArgs.Builder.id(blockedClientId()));

            assertThat(claim).failsWithin(10, TimeUnit.SECONDS);
            q.enqueue(message("m1", "hello"));
            assertThat(claim(claimer)).extracting(Delivery::messageId).containsExactly("m1");
        }
    }

    @Test
    void aClaimerWhoseUserMayNotRunClientCommandsStillClaimsAndStillStops() throws Exception {
        try (RedisGateway limitedGateway = gatewayWithoutClientCommands()) {
            ListQueue q = ListQueue.of(limitedGateway, "rr", "orders", settings(30_000, 0, 1000));
            q.stats();
            try (Claimer claimer = claimerOf(q)) {
                assertThat(claimArrivingMessage(q, claimer)).extracting(Delivery::messageId).containsExactly("m1");

                CompletableFuture<List<Delivery>> next = waitingClaim(claimer, Duration.ofSeconds(1));
                long clients = connectedClients();
                claimer.wakeUp();
                assertThat(next.get(10, TimeUnit.SECONDS)).as("the wait ran out").isEmpty();
                assertThat(connectedClients()).as("the connection was not cut").isEqualTo(clients);
            }
        }
    }

    /**
     * A stop on a connection that cannot be addressed (no CLIENT UNBLOCK: a cluster connection, or here a user
     * without CLIENT) leaves the wait to end: a message that arrives in it is claimed and returned, not cut off
     * with the connection, its reply lost and its delivery counted.
     */
    @Test
    void aStopLeavesAWaitItCannotEndToRunOutSoThatNoClaimsReplyIsLost() throws Exception {
        try (RedisGateway limitedGateway = gatewayWithoutClientCommands()) {
            ListQueue q = ListQueue.of(limitedGateway, "rr", "orders", settings(30_000, 0, 1000));
            try (Claimer claimer = claimerOf(q)) {
                CompletableFuture<List<Delivery>> claim = waitingClaim(claimer, Duration.ofSeconds(5));

                claimer.wakeUp();
                q.enqueue(message("m1", "hello"));

                assertThat(claim.get(10, TimeUnit.SECONDS)).extracting(Delivery::messageId).containsExactly("m1");
            }
        }
    }

    /**
     * CLIENT UNBLOCK answered 0 (the connection is not waiting) is not taken for Redis not answering: the claim's
     * wait is left to run out, and its claim to reply, instead of its connection being cut after a few attempts, which
     * would lose the reply of a claim that is slow to come back. Here the answers are 0 because the claimer's
     * connection was reconnected between two claims, so that the CLIENT ID it asked in front of its first wait is
     * another connection's.
     */
    @Test
    void aStopWhoseUnblockIsAnsweredZeroLetsTheClaimEndInsteadOfCuttingIt() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        try (Claimer claimer = claimerOf(q)) {
            assertThat(claimArrivingMessage(q, claimer)).hasSize(1);
            long clients = connectedClients();
            // the queue's command connection's last command is this one; the claimer's, the claim behind its wait
            gateway.commands().clientId();
            raw.clientKill(KillArgs.Builder.id(clientIdOf("evalsha")));
            await().atMost(Duration.ofSeconds(10)).until(() -> connectedClients() == clients
                                                              && !raw.clientList().contains(" cmd=blpop "));

            CompletableFuture<List<Delivery>> claim = waitingClaim(claimer, Duration.ofSeconds(2));
            claimer.wakeUp();

            assertThat(claim.get(10, TimeUnit.SECONDS)).as("the wait ran out and the claim behind it replied")
                    .isEmpty();
        }
    }

    private RedisGateway gatewayWithoutClientCommands() {
        raw.aclSetuser("limited", AclSetuserArgs.Builder.on().addPassword("secret").allKeys().allCommands()
                .removeCommand(CommandType.CLIENT));
        RedisURI limited = RedisURI.create(redis.uri());
        limited.setCredentialsProvider(new StaticCredentialsProvider("limited", "secret".toCharArray()));
        return RedisGateway.create(resources, limited, Duration.ofSeconds(5));
    }

    @Test
    void aNewClaimerClaimsAtOnceWithoutWaitingAndLaterClaimsWaitForAWakeUpToken() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        q.enqueue(message("m1", "a"));
        raw.del(key("orders", "wake"));
        try (Claimer claimer = q.newClaimer(Claimant.DIRECT)) {
            assertThat(claimer.claim(10, LONG_WAIT)).as("no token, and yet claimed at once")
                    .extracting(Delivery::messageId).containsExactly("m1");
            CompletableFuture<List<Delivery>> next = waitingClaim(claimer);
            q.enqueue(message("m2", "b"));
            assertThat(next.get(10, TimeUnit.SECONDS)).extracting(Delivery::messageId).containsExactly("m2");
        }
    }

    /** A new claimer, past its first claim (which does not wait): its next claims wait for a wake-up token. */
    private static Claimer claimerOf(ListQueue q) {
        Claimer claimer = q.newClaimer(Claimant.DIRECT);
        assertThat(claim(claimer)).as("the first claim of an empty queue").isEmpty();
        return claimer;
    }

    private static List<Delivery> claim(Claimer claimer) {
        return claimer.claim(10, LONG_WAIT);
    }

    /** Starts a claim that waits, then enqueues m1 into the queue; returns what the claim got. */
    private List<Delivery> claimArrivingMessage(ListQueue q, Claimer claimer) throws Exception {
        CompletableFuture<List<Delivery>> claim = waitingClaim(claimer);
        q.enqueue(message("m1", "hello"));
        return claim.get(10, TimeUnit.SECONDS);
    }

    /** Starts a claim on another thread; returns once it waits in BLPOP. */
    private CompletableFuture<List<Delivery>> waitingClaim(Claimer claimer) {
        return waitingClaim(claimer, LONG_WAIT);
    }

    private CompletableFuture<List<Delivery>> waitingClaim(Claimer claimer, Duration maxWait) {
        CompletableFuture<List<Delivery>> claim = CompletableFuture.supplyAsync(() -> claimer.claim(10, maxWait));
        awaitBlockedClients(1);
        return claim;
    }

    private void awaitBlockedClients(long blocked) {
        await().atMost(Duration.ofSeconds(10)).until(() -> info("blocked_clients") == blocked);
    }

    private long blockedClientId() {
        return clientIdOf("blpop");
    }

    /** The id of the client whose last command was this one. */
    private long clientIdOf(String command) {
        return raw.clientList().lines().filter(line -> line.contains(" cmd=" + command + " "))
                .map(line -> Long.parseLong(line.substring(3, line.indexOf(' ')))).findFirst().orElseThrow();
    }

    private long connectedClients() {
        return info("connected_clients");
    }

    private long info(String field) {
        return raw.info("clients").lines().filter(line -> line.startsWith(field + ":"))
                .mapToLong(line -> Long.parseLong(line.substring(field.length() + 1).trim())).findFirst().orElseThrow();
    }
}
