package dev.reliableredis.console;

import java.time.Duration;
import java.util.stream.IntStream;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardPicker;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.CommandStats;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.reliableredis.console.SampleQueues.GROUP;
import static dev.reliableredis.console.SampleQueues.LIST_QUEUE;
import static dev.reliableredis.console.SampleQueues.PREFIX;
import static dev.reliableredis.console.SampleQueues.STREAM_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;

class QueueDiscoveryTest {

    private static RedisProcess redisServer;
    private static RedisClient client;
    private static RedisGateway redis;

    @BeforeAll
    static void fillRedis() {
        redisServer = RedisProcess.start();
        client = RedisClient.create(redisServer.uri());
        redis = RedisGateway.using(client, Duration.ofSeconds(5));
        SampleQueues.fill(redis);

        // a second group on the stream, a queue under another prefix, and keys that only look like queues
        StreamQueue.of(redis, PREFIX, STREAM_QUEUE, new StreamOptions(null, null, "audit", "0", "a", 0, true),
                QueueSettings.defaults()).claim(1);
        ListQueue.of(redis, "other", "invoices", QueueSettings.defaults())
                .enqueue(new NewMessage("i-1", new byte[] {1}, null, 0));
        Queues.shardCount(redis, QueueNames.inSlotGroup(PREFIX, "flow"), "payments", 1, null).check();
        ListQueue.of(redis, QueueNames.inSlotGroup(PREFIX, "flow"), "payments", QueueSettings.defaults())
                .enqueue(new NewMessage("p-1", new byte[] {1}, null, 0));
        RedisCommands<String, String> commands = redisServer.commands();
        commands.set("rr:unrelated", "x");
        commands.set("rrx:{fake}:ready", "x");
        commands.set("rr:{bad name}:ready", "x");
        // only what a stream queue keeps under the prefix when its stream is a streamKey elsewhere
        commands.hset("rr:{elsewhere}:ids", "m", "1-0");
        // a stream key that another program made something else
        commands.set("rr:{broken}:stream", "x");
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        client.shutdown();
        redisServer.close();
    }

    @Test
    void findsTheQueuesOfBothModesUnderThePrefixOnly() {
        QueueDiscovery.Found found = new QueueDiscovery(redis, PREFIX).discover();

        assertThat(found.complete()).isTrue();
        assertThat(found.queues()).containsExactly(
                new QueueRef("broken", QueueMode.STREAM, null),
                new QueueRef(LIST_QUEUE, QueueMode.LIST, null),
                new QueueRef(STREAM_QUEUE, QueueMode.STREAM, "audit"),
                new QueueRef(STREAM_QUEUE, QueueMode.STREAM, GROUP));
        assertThat(new QueueDiscovery(redis, "other").discover().queues())
                .containsExactly(new QueueRef("invoices", QueueMode.LIST, null));
    }

    @Test
    void findsTheQueuesOfASlotGroupUnderItsPrefixOnly() {
        String flow = QueueNames.inSlotGroup(PREFIX, "flow");
        QueueDiscovery discovery = new QueueDiscovery(redis, flow);

        assertThat(discovery.discover().queues()).containsExactly(new QueueRef("payments", QueueMode.LIST, null));
        QueueRef row = discovery.find("payments", null);
        assertThat(row).isEqualTo(new QueueRef("payments", QueueMode.LIST, null));
        assertThat(new EngineQueues(redis, flow, Duration.ofSeconds(30)).of(row).stats().ready()).isEqualTo(1);
        assertThat(new QueueDiscovery(redis, PREFIX).find("payments", null)).isNull();
    }

    @Test
    void usesScanNotKeys() {
        long keysBefore = commandCalls("keys");
        long scansBefore = commandCalls("scan");

        new QueueDiscovery(redis, PREFIX).discover();

        assertThat(commandCalls("keys")).isEqualTo(keysBefore);
        assertThat(commandCalls("scan")).isGreaterThan(scansBefore);
    }

    @Test
    void findsTheQueueARequestNames() {
        QueueDiscovery discovery = new QueueDiscovery(redis, PREFIX);

        assertThat(discovery.find(LIST_QUEUE, null)).isEqualTo(new QueueRef(LIST_QUEUE, QueueMode.LIST, null));
        assertThat(discovery.find(STREAM_QUEUE, "audit"))
                .isEqualTo(new QueueRef(STREAM_QUEUE, QueueMode.STREAM, "audit"));
        assertThat(discovery.find(STREAM_QUEUE, "nosuchgroup")).isNull();
        assertThat(discovery.find(STREAM_QUEUE, null)).isNull();
        assertThat(discovery.find(LIST_QUEUE, GROUP)).isNull();
        assertThat(discovery.find("invoices", null)).isNull();
        assertThat(discovery.find("bad name", null)).isNull();
        assertThat(discovery.find("elsewhere", null)).isNull();
    }

    /**
     * A queue of three shards is one row over them: as many as its meta hash records, or, for one whose count was
     * never recorded, as many as its keys show; its counts are the shards' sums.
     */
    @Test
    void aShardedQueueIsOneRowOverItsShards() {
        Queues.shardCount(redis, "sharding", "ledger", 3, null).check();
        ReliableQueue ledger = Queues.open(redis, "sharding", "ledger", 3, null, QueueSettings.defaults());
        ReliableQueue unrecorded = Queues.open(redis, "sharding", "unrecorded", 3, null, QueueSettings.defaults());
        for (int shard = 0; shard < 3; shard++) {
            for (int i = 0; i < 3; i++) {
                ledger.enqueue(new NewMessage("l-" + shard + "-" + i, new byte[] {1}, null, 0, keyFor(shard)));
            }
            unrecorded.enqueue(new NewMessage("u-" + shard, new byte[] {1}, null, 0, keyFor(shard)));
        }
        QueueDiscovery discovery = new QueueDiscovery(redis, "sharding");

        assertThat(discovery.discover().queues()).containsExactly(new QueueRef("ledger", QueueMode.LIST, null, 3),
                new QueueRef("unrecorded", QueueMode.LIST, null, 3));
        QueueRef row = discovery.find("ledger", null);
        assertThat(row).isEqualTo(new QueueRef("ledger", QueueMode.LIST, null, 3));
        assertThat(new EngineQueues(redis, "sharding", Duration.ofSeconds(30)).of(row).stats().ready()).isEqualTo(9);
        assertThat(discovery.find("ledger#1", null)).as("a shard is not a queue of its own").isNull();
    }

    private static String keyFor(int shard) {
        return IntStream.range(0, 1000).mapToObj(i -> "key" + i).filter(k -> ShardPicker.shardOf(k, 3) == shard)
                .findFirst().orElseThrow();
    }

    private static long commandCalls(String command) {
        return CommandStats.of(redisServer.commands(), command, "calls");
    }
}
