package dev.reliableredis.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.CommandStats;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One redis-server per test class, emptied before each test. A class that runs once per mode
 * ({@code @ParameterizedClass}) gets its mode in {@link #mode} and opens its queue with {@link #queueOfMode}.
 */
abstract class QueueTestBase {

    /** A consumer thread's claimant: a thread that claimed within two seconds counts as live. */
    static final Claimant THREAD = new Claimant("consumer#0", Duration.ofSeconds(2));

    /** list, stream or sharded; list in a class that does not run once per mode. */
    @Parameter
    String mode = "list";

    static RedisProcess redis;
    static ClientResources resources;
    RedisGateway gateway;
    RedisCommands<String, String> raw;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
        resources = RedisGateway.newClientResources();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        resources.shutdown();
    }

    @BeforeEach
    void connect() {
        raw = redis.commands();
        raw.flushall();
        gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()), Duration.ofSeconds(5));
    }

    @AfterEach
    void disconnect() {
        gateway.close();
    }

    ListQueue queue(String name, QueueSettings settings) {
        return ListQueue.of(gateway, "rr", name, settings);
    }

    StreamQueue streamQueue(String name, QueueSettings settings, StreamOptions options) {
        return StreamQueue.of(gateway, "rr", name, options, settings);
    }

    /**
     * The queue "orders" in the mode of the class's run: list mode, stream mode (group g, consumer c1), or list mode
     * over 3 shards.
     */
    ReliableQueue queueOfMode(QueueSettings settings) {
        return switch (mode) {
            case "list" -> queue("orders", settings);
            case "stream" -> streamQueue("orders", settings, group("g", "c1"));
            default -> ShardedQueue.of("orders", 3, i -> ListQueue.of(gateway, "rr", QueueNames.shard("orders", i),
                    settings));
        };
    }

    /** The queue {@code name} over {@code shards} shards in the mode of the class's run, list or stream. */
    ShardedQueue shardedOfMode(RedisGateway on, String name, int shards, QueueSettings settings) {
        StreamOptions options = group("g", "c1");
        return ShardedQueue.of(name, shards, i -> streamMode()
                ? StreamQueue.of(on, "rr", QueueNames.shard(name, i), options, settings)
                : ListQueue.of(on, "rr", QueueNames.shard(name, i), settings));
    }

    boolean streamMode() {
        return "stream".equals(mode);
    }

    static StreamOptions group(String group, String consumer) {
        return new StreamOptions(null, null, group, "0", consumer, 0, true);
    }

    static QueueSettings settings(long visibilityMs, int maxRetries, long retryDelayMs) {
        return QueueSettings.builder().visibilityTimeout(Duration.ofMillis(visibilityMs)).maxRetries(maxRetries)
                .retryDelay(Duration.ofMillis(retryDelayMs)).maxRetryDelay(Duration.ofMillis(retryDelayMs * 100))
                .idempotencyWindow(Duration.ofMinutes(10)).build();
    }

    /** The four counts of the queue's stats, without the ages, which depend on how long the test takes. */
    static QueueStats counts(ReliableQueue q) {
        QueueStats stats = q.stats();
        return new QueueStats(stats.ready(), stats.inflight(), stats.delayed(), stats.dead());
    }

    /** Claims until exactly these messages are claimed (in any order), and no other. */
    static List<Delivery> claimExactly(ReliableQueue queue, List<String> ids) {
        List<Delivery> claimed = new ArrayList<>();
        for (int attempt = 0; attempt < 100 && claimed.size() < ids.size(); attempt++) {
            claimed.addAll(queue.claim(new Claimant("t", Duration.ofMillis(1)), 1000));
        }
        assertThat(claimed).extracting(Delivery::messageId).containsExactlyInAnyOrderElementsOf(ids);
        return claimed;
    }

    /** The ids m<from>..m<to - 1>. */
    static List<String> ids(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "m" + i).toList();
    }

    /** Messages m<from>..m<to - 1>, the even ones with one of 5 shard keys, which {@code keys} records by id. */
    static List<NewMessage> keyedMessages(int from, int to, Map<String, String> keys) {
        List<NewMessage> messages = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String key = i % 2 == 0 ? "customer-" + i % 5 : null;
            if (key != null) {
                keys.put("m" + i, key);
            }
            messages.add(new NewMessage("m" + i, ("body " + i).getBytes(), Map.of("n", i), 0, key));
        }
        return messages;
    }

    /**
     * Claims up to 10 messages through the claimer on another thread, each claim waiting at most {@code maxWait}, and
     * claims again after a claim that got nothing (a list-mode claimer may wake for a token left before), until one
     * gets messages.
     */
    static CompletableFuture<List<Delivery>> claimUntilSome(Claimer claimer, Duration maxWait) {
        return CompletableFuture.supplyAsync(() -> {
            List<Delivery> got = List.of();
            while (got.isEmpty()) {
                got = claimer.claim(10, maxWait);
            }
            return got;
        });
    }

    /** Whether a client of the test's Redis is blocked in the command (CLIENT LIST). */
    boolean blockedIn(String command) {
        return raw.clientList().lines().anyMatch(line -> line.contains(" cmd=" + command + " ")
                && line.matches(".* flags=\\S*b\\S* .*"));
    }
    /** Redis server time in ms. */
    long now() {
        var time = raw.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    static NewMessage message(String id, String body) {
        return new NewMessage(id, body.getBytes(), null, 0);
    }

    /**
     * Enqueues "known" into an empty queue, then a batch of five: a new message, "known" again, the new one again, a
     * delayed one and another new one. The batch is one script call, which stores the three new ones.
     */
    void assertABatchIsOneScriptCallWithOneResultPerMessage(ReliableQueue q) {
        q.enqueue(message("known", "a"));
        long scriptRunsBefore = CommandStats.scriptRuns(raw);

        List<Boolean> stored = q.enqueue(List.of(message("m1", "x"), message("known", "b"), message("m1", "y"),
                new NewMessage("later", "z".getBytes(), null, 60_000), message("m2", "w")));

        assertThat(stored).containsExactly(true, false, false, true, true);
        assertThat(CommandStats.scriptRuns(raw) - scriptRunsBefore).isEqualTo(1);
    }

    /** Enqueues the message into a queue with nothing else ready, and claims it. */
    static Delivery enqueueAndClaim(ReliableQueue queue, NewMessage message) {
        queue.enqueue(message);
        return queue.claim(1).get(0);
    }

    String key(String queue, String part) {
        return "rr:{" + queue + "}:" + part;
    }

    /**
     * Runs the operation while whatever arrives in the queue is dead-lettered again at once: consumers failing every
     * redriven message, played by a script that moves ready messages (list mode) or entries (stream mode) to the
     * dead letters faster than any consumer could.
     */
    <T> T whileDeadLetteringAgain(String queue, boolean stream, Supplier<T> operation) {
        String script = stream
                ? "local es = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1000) "
                  + "for _, e in ipairs(es) do "
                  + "  local f = {} for i = 1, #e[2], 2 do f[e[2][i]] = e[2][i + 1] end "
                  + "  redis.call('XADD', KEYS[2], '*', 'origin_id', e[1], 'content', f['body'], 'failure', 'again', "
                  + "    'deliveries', '1', 'id', f['id']) "
                  + "  redis.call('XDEL', KEYS[1], e[1]) "
                  + "end return #es"
                : "local ids = redis.call('LPOP', KEYS[1], 1000) or {} "
                  + "for _, id in ipairs(ids) do redis.call('ZADD', KEYS[2], 1, id) end return #ids";
        String[] keys = stream ? new String[] {key(queue, "stream"), key(queue, "dead")}
                : new String[] {key(queue, "ready"), key(queue, "dead")};
        AtomicBoolean done = new AtomicBoolean();
        Thread failing = new Thread(() -> {
            var commands = redis.commands();
            for (int rounds = 0; !done.get() && rounds < 100_000; rounds++) {
                commands.eval(script, io.lettuce.core.ScriptOutputType.INTEGER, keys);
            }
        });
        failing.start();
        try {
            return operation.get();
        } finally {
            done.set(true);
            try {
                failing.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A reap after one that found nothing to do writes nothing: an AOF and the replicas would see every write. */
    void assertAnIdleReapWritesNothing(ReliableQueue q) {
        q.enqueue(message("m1", "a"));
        q.ack(List.of(q.claim(1).get(0).lease()));
        q.reap();
        long changes = changesSinceSave();

        q.reap();
        q.reap();

        assertThat(changesSinceSave()).isEqualTo(changes);
    }

    private long changesSinceSave() {
        return Long.parseLong(raw.info("persistence").replaceAll("(?s).*rdb_changes_since_last_save:(\\d+).*", "$1"));
    }
}
