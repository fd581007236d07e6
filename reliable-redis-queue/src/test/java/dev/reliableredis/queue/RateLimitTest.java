package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue-wide rate limit, decided in the claim script with a generic cell rate algorithm on the Redis clock:
 * claims are spread evenly whoever claims, at most the burst at once, a claimer at the limit waits as long as the
 * script says, and being limited uses up no delivery. Judged by the claim times Redis records (a lease's deadline in
 * list mode, a pending entry's last delivery in stream mode), not by the test's clock.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class RateLimitTest extends QueueTestBase {

    private static final long VISIBILITY_MS = 60_000;

    private ReliableQueue limited(int permits, int burst) {
        return queueOfMode(settings(VISIBILITY_MS, 3, 100)
                .toBuilder().rateLimit(new RateLimit(permits, Duration.ofSeconds(1), burst)).build());
    }

    @Test
    void aClaimTakesAtMostTheBurstThenNothingUntilTheLimitAllowsMore() {
        ReliableQueue queue = limited(10, 3);
        queue.enqueue(messages(10));

        List<Delivery> first = queue.claim(10);
        assertThat(first).as("the burst").hasSize(3);
        assertThat(queue.claim(10)).as("at the limit").isEmpty();
        long ahead = Math.round(Double.parseDouble(raw.get(rateKey()))) - now();
        assertThat(ahead).as("3 messages at 100 ms each").isBetween(200L, 300L);

        await().atMost(Duration.ofSeconds(10)).until(() -> !queue.claim(10).isEmpty());
        assertThat(queue.stats().ready()).as("one more after one interval: the rest").isBetween(5L, 6L);
    }

    @Test
    void statsTellWhileTheLimitHoldsClaimsBack() {
        ReliableQueue queue = queueOfMode(settings(60_000, 3, 100)
                .toBuilder().rateLimit(new RateLimit(1, Duration.ofHours(1), 1)).build());
        queue.enqueue(messages(2));

        assertThat(queue.claim(10)).hasSize(1);
        assertThat(queue.stats().limited()).as("a claim the limit allowed").isFalse();
        assertThat(queue.claim(10)).isEmpty();

        assertThat(queue.stats().limited()).isTrue();
        assertThat(raw.pttl(limitedKey())).as("as long as the claim was told to wait")
                .isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofHours(1).toMillis());
    }

    @Test
    void twoClaimersAtTheLimitTakeNoMoreThanItAllowsInAnySecondOfRedisTime() throws Exception {
        ReliableQueue queue = limited(20, 1);
        queue.enqueue(messages(30));
        List<Long> claimedAt = Collections.synchronizedList(new ArrayList<>());
        List<Integer> deliveryCounts = Collections.synchronizedList(new ArrayList<>());

        List<CompletableFuture<Void>> claimers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Claimant claimant = new Claimant("consumer#" + t, Duration.ofSeconds(2));
            claimers.add(CompletableFuture.runAsync(() -> {
                try (Claimer claimer = queue.newClaimer(claimant)) {
                    while (claimedAt.size() < 30) {
                        for (Delivery d : claimer.claim(10, Duration.ofSeconds(1))) {
                            claimedAt.add(claimTime(d));
                            deliveryCounts.add(d.deliveryCount());
                            queue.ack(List.of(d.lease()));
                        }
                    }
                }
            }));
        }
        CompletableFuture.allOf(claimers.toArray(CompletableFuture[]::new)).get();

        List<Long> times = claimedAt.stream().sorted().toList();
        assertThat(times).hasSize(30);
        for (long start : times) {
            assertThat(times.stream().filter(t -> t >= start && t < start + 1000).count())
                    .as("claims in the second from %d", start).isLessThanOrEqualTo(21);
        }
        assertThat(times.get(29) - times.get(0)).as("29 intervals of 50 ms").isGreaterThanOrEqualTo(1400);
        assertThat(deliveryCounts).as("being limited uses up no delivery").containsOnly(1);
    }

    @Test
    void aClaimerAtTheLimitWaitsForItAndAnIdleOneForAnArrival() throws Exception {
        ReliableQueue queue = limited(2, 1);
        queue.enqueue(messages(2));
        assertThat(queue.claim(10)).hasSize(1);

        try (Claimer claimer = queue.newClaimer(new Claimant("consumer#0", Duration.ofSeconds(2)))) {
            List<Delivery> second = claimer.claim(10, Duration.ofSeconds(10));
            if (mode.equals("list")) {
                // a list claimer's first claim goes at once, and finds the limit; it sleeps before the next
                assertThat(second).isEmpty();
                second = claimer.claim(10, Duration.ofSeconds(10));
            }
            assertThat(second).as("after the 500 ms the limit asks for, within one wait").hasSize(1);

            // a list claimer may wake for a token left before and claim nothing: it claims again
            CompletableFuture<List<Delivery>> next = claimUntilSome(claimer, Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10)).until(() -> blockedIn(mode.equals("list") ? "blpop" : "xread"));
            queue.enqueue(message("late", "arrives while the claimer waits"));

            assertThat(next.get()).extracting(Delivery::messageId).containsExactly("late");
        }
    }

    @Test
    void aClaimMadeAgainAfterItsFirstRunsMessagesWentIsANewOneUnderTheLimitInStreamMode() {
        ReliableQueue queue = limited(10, 1);
        queue.enqueue(messages(1));
        Claimant claimant = new Claimant("consumer#0", Duration.ofSeconds(2));
        ClaimId claimId = new ClaimId();
        // a first run of this claim took an entry that is gone now: its reply was lost, the entry taken over since
        String claimKey = mode.equals("list") ? key("orders", "claim:consumer#0")
                : key("orders", "group:g:claim:consumer#0");
        raw.eval("return redis.call('SET', KEYS[1], cmsgpack.pack({ARGV[1], '0-1', 1}))", ScriptOutputType.STATUS,
                new String[] {claimKey}, claimId.value());

        List<Delivery> claimed = queue.claim(claimant, 10, claimId);

        if (mode.equals("stream")) {
            // else its claimer would read with XREADGROUP, past the limit
            assertThat(claimed).extracting(Delivery::messageId).containsExactly("m0");
            assertThat(raw.exists(rateKey())).as("counted").isOne();
        } else {
            // a list claimer never reads by itself: it waits for a token and claims with the script
            assertThat(claimed).as("what is left of its first run").isEmpty();
        }
    }

    private String limitedKey() {
        return mode.equals("list") ? key("orders", "limited") : key("orders", "group:g:limited");
    }

    private String rateKey() {
        return mode.equals("list") ? key("orders", "rate") : key("orders", "group:g:rate");
    }

    /** The Redis time the delivery was claimed at, as the claim script recorded it. */
    private long claimTime(Delivery d) {
        if (mode.equals("list")) {
            return Math.round(raw.zscore(key("orders", "inflight"), d.messageId())) - VISIBILITY_MS;
        }
        List<Long> nowAndIdle = raw.eval("local t = redis.call('TIME') "
                + "local p = redis.call('XPENDING', KEYS[1], 'g', ARGV[1], ARGV[1], 1)[1] "
                + "return {t[1] * 1000 + math.floor(t[2] / 1000), p[3]}",
                ScriptOutputType.MULTI, new String[] {key("orders", "stream")}, d.lease().ref());
        return nowAndIdle.get(0) - nowAndIdle.get(1);
    }

    private static List<NewMessage> messages(int count) {
        return ids(0, count).stream().map(id -> message(id, "body of " + id)).toList();
    }
}
