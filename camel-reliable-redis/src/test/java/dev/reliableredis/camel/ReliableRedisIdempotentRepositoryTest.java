package dev.reliableredis.camel;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The repository's contract on a real Redis: atomic add, expiry by Redis, a clear that touches only its own keys. */
class ReliableRedisIdempotentRepositoryTest {

    @RegisterExtension
    static final RedisPerClass REDIS = new RedisPerClass();

    private final RedisCommands<String, String> raw = REDIS.commands();
    private final List<ReliableRedisIdempotentRepository> started = new ArrayList<>();

    @AfterEach
    void stopRepositories() {
        started.forEach(ReliableRedisIdempotentRepository::stop);
    }

    private ReliableRedisIdempotentRepository repository(String name) {
        return repository(name, Duration.ofHours(1));
    }

    private ReliableRedisIdempotentRepository repository(String name, Duration expiry) {
        ReliableRedisIdempotentRepository repository = new ReliableRedisIdempotentRepository(REDIS.uri(), name);
        repository.setExpiry(expiry);
        repository.start();
        started.add(repository);
        return repository;
    }

    @Test
    void ofConcurrentAddsOfOneKeyExactlyOneWins() throws Exception {
        ReliableRedisIdempotentRepository repository = repository("orders");
        ExecutorService threads = Executors.newFixedThreadPool(32);
        try {
            for (int round = 0; round < 20; round++) {
                String key = "order-" + round;
                CountDownLatch go = new CountDownLatch(1);
                List<Callable<Boolean>> adds = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    adds.add(() -> {
                        go.await();
                        return repository.add(key);
                    });
                }
                List<Future<Boolean>> results = new ArrayList<>();
                adds.forEach(add -> results.add(threads.submit(add)));
                go.countDown();
                int winners = 0;
                for (Future<Boolean> result : results) {
                    winners += result.get() ? 1 : 0;
                }
                assertThat(winners).as("adds of %s that returned true", key).isEqualTo(1);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void addContainsRemoveAndConfirmKeepCamelsContract() {
        ReliableRedisIdempotentRepository repository = repository("orders");
        assertThat(repository.contains("A")).isFalse();
        assertThat(repository.add("A")).isTrue();
        assertThat(repository.add("A")).isFalse();
        assertThat(repository.contains("A")).isTrue();
        assertThat(repository.contains("B")).isFalse();
        assertThat(raw.get("rr:{orders}:seen:A")).as("the add's own token").isNotBlank();

        assertThat(repository.contains("A")).isTrue();

        assertThat(repository.remove("A")).isTrue();
        assertThat(repository.remove("A")).isFalse();
        assertThat(repository.contains("A")).isFalse();
        assertThat(repository.add("A")).isTrue();
    }

    @Test
    void redisForgetsAKeyAfterTheExpiry() {
        ReliableRedisIdempotentRepository repository = repository("orders", Duration.ofMillis(400));
        assertThat(repository.add("A")).isTrue();
        assertThat(raw.pttl("rr:{orders}:seen:A")).isBetween(1L, 400L);
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists("rr:{orders}:seen:A") == 0);
        assertThat(repository.contains("A")).isFalse();
        assertThat(repository.add("A")).isTrue();
    }

    @Test
    void theDefaultExpiryIs24HoursAndZeroKeepsKeysForEver() {
        ReliableRedisIdempotentRepository byDefault = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        byDefault.start();
        started.add(byDefault);
        byDefault.add("A");
        assertThat(raw.pttl("rr:{orders}:seen:A")).isBetween(Duration.ofHours(23).toMillis(),
                Duration.ofHours(24).toMillis());

        repository("kept", Duration.ZERO).add("A");
        assertThat(raw.pttl("rr:{kept}:seen:A")).isEqualTo(-1L);
    }

    /** The figure docs/idempotent-repository.md gives for sizing the expiry. */
    /**
     * An add that Redis carried out but whose answer was lost: Redis is paused (CLIENT PAUSE) past the add's command
     * timeout, and runs the add when the pause ends. The add failed, Camel's idempotent consumer runs no remove for
     * it, and the key is in Redis; the source's resend is added all the same, once, and another repository, which
     * knows nothing of the lost add, sees a duplicate.
     */
    @Test
    void anAddWhoseAnswerWasLostDoesNotKeepTheResendOut() {
        ReliableRedisIdempotentRepository repository = repository("orders");
        repository.stop();
        repository.setCommandTimeout(Duration.ofMillis(200));
        repository.start();
        ReliableRedisIdempotentRepository another = repository("orders");
        // connections open before Redis pauses, so that the add itself is what goes unanswered
        assertThat(repository.contains("order-1")).isFalse();
        assertThat(another.contains("order-1")).isFalse();

        raw.clientPause(1000);
        assertThatThrownBy(() -> repository.add("order-1")).isInstanceOf(IdempotentRepositoryException.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.exists("rr:{orders}:seen:order-1") == 1);

        assertThat(another.add("order-1")).as("another repository: a duplicate").isFalse();
        assertThat(repository.add("order-1")).as("the resend").isTrue();
        assertThat(repository.add("order-1")).as("a second resend").isFalse();
    }

    @Test
    void aKeyCostsAbout150BytesOfRedis() {
        ReliableRedisIdempotentRepository repository = repository("orders");
        int keys = 20_000;
        long before = usedMemory();
        for (int i = 0; i < keys; i++) {
            repository.add(UUID.randomUUID().toString());
        }
        assertThat((usedMemory() - before) / (double) keys).isBetween(120.0, 180.0);
    }

    private long usedMemory() {
        return raw.info("memory").lines().filter(line -> line.startsWith("used_memory:"))
                .mapToLong(line -> Long.parseLong(line.substring("used_memory:".length()).trim())).findFirst()
                .orElseThrow();
    }

    @Test
    void clearRemovesItsOwnKeysOnly() {
        ReliableRedisIdempotentRepository orders = repository("orders");
        ReliableRedisIdempotentRepository other = repository("orders-2");
        int many = ReliableRedisIdempotentRepository.CLEAR_BATCH * 2 + 500;
        for (int i = 0; i < many; i++) {
            orders.add("order-" + i);
        }
        orders.add("*");
        orders.add("[a-z]?");
        other.add("order-1");
        // a queue of the same name under the same prefix, another prefix, and keys of no repository
        raw.rpush("rr:{orders}:ready", "m1");
        raw.hset("rr:{orders}:messages", "m1", "record");
        raw.set("rr:{orders}:seq", "7");
        raw.set("rx:{orders}:seen:order-1", "1");
        raw.set("rr:{orders}:seenx", "1");
        raw.set("unrelated", "1");
        long others = raw.dbsize() - many - 2;

        orders.clear();

        assertThat(RedisProcess.keys(raw, "rr:{orders}:seen:*")).isEmpty();
        assertThat(raw.dbsize()).isEqualTo(others);
        assertThat(other.contains("order-1")).isTrue();
        assertThat(raw.lrange("rr:{orders}:ready", 0, -1)).containsExactly("m1");
        assertThat(raw.exists("rr:{orders}:messages", "rr:{orders}:seq", "rx:{orders}:seen:order-1",
                "rr:{orders}:seenx", "unrelated")).isEqualTo(5L);
        assertThat(orders.add("order-1")).isTrue();
    }

    @Test
    void keysOfAnyTextAreKeptApart() {
        ReliableRedisIdempotentRepository repository = repository("orders");
        List<String> keys = List.of("*", "?", "[", "[a-z]", "a*", "{orders}", "}", "{", "a b", " ", "", "\\", "ключ",
                "注文-7", "emoji 🎉", "x".repeat(100_000), "x".repeat(100_000) + "y", "sha256:abc");
        for (String key : keys) {
            assertThat(repository.add(key)).as("first add of '%s'", abbreviate(key)).isTrue();
        }
        for (String key : keys) {
            assertThat(repository.add(key)).as("second add of '%s'", abbreviate(key)).isFalse();
            assertThat(repository.contains(key)).isTrue();
        }
        assertThat(repository.contains("a")).isFalse();
        assertThat(repository.contains("x".repeat(100_001))).isFalse();
        assertThat(raw.exists("rr:{orders}:seen:*", "rr:{orders}:seen:ключ", "rr:{orders}:seen:a b")).isEqualTo(3L);
        // long keys, and keys that look like a hashed one, are stored as their SHA-256
        assertThat(RedisProcess.keys(raw, "rr:{orders}:seen:*"))
                .allSatisfy(key -> assertThat(key.length()).isLessThan(600));
        assertThat(raw.exists("rr:{orders}:seen:sha256:abc")).isZero();

        assertThat(repository.remove("*")).isTrue();
        assertThat(repository.contains("a*")).isTrue();
        repository.clear();
        for (String key : keys) {
            assertThat(repository.contains(key)).as("'%s' after clear", abbreviate(key)).isFalse();
        }
    }

    @Test
    void theScanPatternMatchesItsBaseLiterally() {
        raw.set("a*b?[c]\\:x", "1");
        raw.set("aXb?[c]\\:x", "1");
        raw.set("a*bZc\\:x", "1");
        String pattern = IdempotentKeys.globLiteral("a*b?[c]\\:") + "*";
        assertThat(raw.scan(ScanArgs.Builder.matches(pattern).limit(100)).getKeys())
                .containsExactly("a*b?[c]\\:x");
    }

    private static String abbreviate(String key) {
        return key.length() > 20 ? key.substring(0, 20) + "... (" + key.length() + " chars)" : key;
    }

    @Test
    void aClientTheApplicationOwnsStaysOpenAfterStop() {
        RedisClient client = RedisClient.create(REDIS.uri());
        try {
            ReliableRedisIdempotentRepository repository = new ReliableRedisIdempotentRepository(client, "orders");
            repository.setKeyPrefix("app");
            repository.start();
            assertThat(repository.add("A")).isTrue();
            repository.stop();
            assertThat(raw.exists("app:{orders}:seen:A")).isEqualTo(1L);
            try (var connection = client.connect()) {
                assertThat(connection.sync().get("app:{orders}:seen:A")).as("the add's token").isNotBlank();
            }
            assertThatThrownBy(() -> repository.add("B")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'orders' is not started");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void everyOperationWorksAsAUserWithOnlyTheRepositorysAclRule() {
        raw.aclLogReset();
        LeastPrivilegeUser.create(raw, "repository", "repository-pw", LeastPrivilegeUser.IDEMPOTENT_REPOSITORY_RULE);
        ReliableRedisIdempotentRepository repository = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        repository.setUsername("repository");
        repository.setPassword("repository-pw");
        repository.start();
        started.add(repository);

        assertThat(repository.add("A")).isTrue();
        assertThat(repository.add("B")).isTrue();
        assertThat(repository.contains("A")).isTrue();
        assertThat(repository.remove("A")).isTrue();
        repository.clear();

        assertThat(RedisProcess.keys(raw, "rr:{orders}:seen:*")).isEmpty();
        assertThat(LeastPrivilegeUser.refusals(raw, "repository")).allMatch(LeastPrivilegeUser::refusedOnPurpose);
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void toStringShowsNoPasswordWhateverItHolds(String character) {
        String password = "s3cr" + character + "et";
        String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8);

        // with & the URI parses and is described; with # / ? it does not, and is masked
        assertThat(new ReliableRedisIdempotentRepository("redis://app:" + password + "@cache:6379", "orders"))
                .hasToString(character.equals("&")
                        ? "ReliableRedisIdempotentRepository[rr:{orders}, redis://cache:6379]"
                        : "ReliableRedisIdempotentRepository[rr:{orders}, redis://xxxxxx@cache:6379]");
        assertThat(new ReliableRedisIdempotentRepository("redis://:" + encoded + "@cache:6379/3", "orders"))
                .hasToString("ReliableRedisIdempotentRepository[rr:{orders}, redis://cache:6379/3]");
    }

    @Test
    void aWrongPasswordFailsNamingTheRepositoryWithoutThePassword() {
        try (RedisProcess locked = RedisProcess.start("--requirepass", "right-pw")) {
            String uri = "redis://:wr0ng-pw@localhost:" + locked.port();
            ReliableRedisIdempotentRepository inUri = new ReliableRedisIdempotentRepository(uri, "orders");
            ReliableRedisIdempotentRepository asOption = new ReliableRedisIdempotentRepository(
                    "redis://localhost:" + locked.port(), "invoices");
            asOption.setPassword("wr0ng-pw");
            for (ReliableRedisIdempotentRepository repository : List.of(inUri, asOption)) {
                repository.start();
                try {
                    assertThatThrownBy(() -> repository.add("A"))
                            .isInstanceOf(IdempotentRepositoryException.class)
                            .hasMessageStartingWith("add on idempotent repository '" + repository.getName() + "' failed")
                            // Redis's refusal, or what Lettuce (6.8 and 7) sometimes reports instead when the
                            // connection of a refused login is closed under its handshake
                            .message().containsAnyOf("WRONGPASS", "RedisHandshakeHandler not registered")
                            .doesNotContain("wr0ng-pw");
                    assertThat(repository.toString()).contains(repository.getName()).doesNotContain("wr0ng-pw");
                } finally {
                    repository.stop();
                }
            }
        }
    }

    @Test
    void badSettingsFailAtStartNamingThem() {
        ReliableRedisIdempotentRepository badName = new ReliableRedisIdempotentRepository(REDIS.uri(), "a*b");
        assertThatThrownBy(badName::start).hasMessageContaining("Repository name 'a*b' contains the character '*'");
        ReliableRedisIdempotentRepository badPrefix = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        badPrefix.setKeyPrefix("r{r}");
        assertThatThrownBy(badPrefix::start).hasMessageContaining("keyPrefix 'r{r}' is not allowed");
        ReliableRedisIdempotentRepository noRedis = new ReliableRedisIdempotentRepository();
        noRedis.setName("orders");
        assertThatThrownBy(noRedis::start).hasMessageContaining("'orders' needs redisClient or redisUri");
        ReliableRedisIdempotentRepository negative = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        negative.setExpiry(Duration.ofSeconds(-1));
        assertThatThrownBy(negative::start).hasMessageContaining("expiry must be zero (never) or at least 1 ms");
        ReliableRedisIdempotentRepository belowPx = new ReliableRedisIdempotentRepository(REDIS.uri(), "orders");
        belowPx.setExpiry(Duration.ofNanos(500));
        assertThatThrownBy(belowPx::start).hasMessageContaining("at least 1 ms, was PT0.0000005S");
    }
}
