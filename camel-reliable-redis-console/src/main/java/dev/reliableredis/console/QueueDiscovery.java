package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.reliableredis.queue.keys.QueueKey;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardedQueue;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * Finds the queues under a key prefix from their keys, {@code <prefix>:{<queue>}:<part>}, read with the engine's
 * {@link QueueKey} parser, with SCAN (never KEYS, which blocks Redis for the whole keyspace). A queue with a
 * {@code stream} key is in stream mode, with one row per consumer group of that stream; one with a key only list
 * mode writes is in list mode. A sharded queue ({@code {<queue>#<i>}} keys besides its own) is one row over its
 * shards: as many as its {@code meta} hash records, else as its keys show. A stream-mode queue whose stream is a
 * {@code streamKey} outside the prefix has no such key and is not found.
 */
final class QueueDiscovery {

    /** Keys that only list mode writes; {@code dead}, {@code delayed} and {@code acked} exist in both modes. */
    private static final Set<String> LIST_PARTS =
            Set.of("ready", "inflight", "dead-inflight", "messages", "leases", "failure", "seq", "wake");
    private static final int SCAN_COUNT = 1000;
    /** At most this many SCAN calls per discovery (10 million keys looked at), so one look stays bounded. */
    private static final int MAX_SCANS = 10_000;
    static final int MAX_QUEUES = 200;
    static final int MAX_GROUPS = 20;

    /**
     * What one discovery found.
     *
     * @param queues   the rows, by queue name then group
     * @param complete false when more than {@link #MAX_QUEUES} queues exist or the scan stopped early
     */
    record Found(List<QueueRef> queues, boolean complete) {
    }

    private final RedisGateway redis;
    private final String prefix;

    QueueDiscovery(RedisGateway redis, String prefix) {
        this.redis = redis;
        this.prefix = QueueNames.validateQueueKeyPrefix(prefix);
    }

    Found discover() {
        RedisClusterCommands<byte[], byte[]> commands = redis.commands();
        // the prefix allows only letters, digits and . _ : - (and a slot group's braces): none is special in SCAN
        ScanArgs match = ScanArgs.Builder.matches(bytes(prefix + ":{*")).limit(SCAN_COUNT);
        Map<String, Set<String>> parts = new TreeMap<>();
        Map<String, Integer> shardsSeen = new HashMap<>();
        boolean complete = false;
        ScanCursor cursor = ScanCursor.INITIAL;
        for (int scans = 0; scans < MAX_SCANS && parts.size() <= MAX_QUEUES; scans++) {
            KeyScanCursor<byte[]> page = commands.scan(cursor, match);
            for (byte[] key : page.getKeys()) {
                QueueKey.parse(prefix, new String(key, StandardCharsets.UTF_8)).ifPresent(found -> {
                    parts.computeIfAbsent(found.queue(), n -> new HashSet<>()).add(found.part());
                    shardsSeen.merge(found.queue(), found.shard() + 1, Math::max);
                });
            }
            if (page.isFinished()) {
                complete = parts.size() <= MAX_QUEUES;
                break;
            }
            cursor = page;
        }
        List<QueueRef> queues = new ArrayList<>();
        parts.entrySet().stream().limit(MAX_QUEUES).forEach(queue -> {
            String name = queue.getKey();
            try {
                addRows(commands, name, queue.getValue(), shards(commands, name, shardsSeen.get(name)), queues);
            } catch (UnreadableQueue e) {
                // one queue another program wrote into must not hide the others
                queues.add(new QueueRef(name, queue.getValue().contains("stream") ? QueueMode.STREAM : QueueMode.LIST,
                        null, 1, e.getMessage()));
            }
        });
        return new Found(queues, complete);
    }

    /**
     * The row a request names, found again in Redis (the page may be older than the queue): null when no such queue
     * or group exists under the prefix.
     */
    QueueRef find(String name, String group) {
        if (!isQueueName(name)) {
            return null;
        }
        RedisClusterCommands<byte[], byte[]> commands = redis.commands();
        String base = keyBase(name);
        int shards;
        try {
            shards = shards(commands, name, 1);
        } catch (UnreadableQueue e) {
            boolean stream = commands.exists(bytes(base + "stream")) > 0;
            return new QueueRef(name, stream ? QueueMode.STREAM : QueueMode.LIST, group, 1, e.getMessage());
        }
        if ("stream".equals(commands.type(bytes(base + "stream")))) {
            List<String> groups = StreamGroups.of(commands, bytes(base + "stream"));
            if (group == null || group.isEmpty()) {
                return groups.isEmpty() ? new QueueRef(name, QueueMode.STREAM, null, shards) : null;
            }
            return groups.contains(group) ? new QueueRef(name, QueueMode.STREAM, group, shards) : null;
        }
        if (group != null && !group.isEmpty()) {
            return null;
        }
        byte[][] listKeys = LIST_PARTS.stream().map(part -> bytes(base + part)).toArray(byte[][]::new);
        return commands.exists(listKeys) > 0 ? new QueueRef(name, QueueMode.LIST, null, shards) : null;
    }

    /**
     * The queue's shards as its meta hash records them; where it records none, as many as its keys show.
     *
     * @throws UnreadableQueue when the meta key is not a hash, or its count not a number of shards
     */
    private int shards(RedisClusterCommands<byte[], byte[]> commands, String name, Integer seen) {
        byte[] recorded;
        try {
            recorded = commands.hget(bytes(keyBase(name) + "meta"), bytes("shards"));
        } catch (RedisCommandExecutionException e) {
            throw new UnreadableQueue("its key " + keyBase(name) + "meta is not a hash: " + e.getMessage());
        }
        if (recorded == null) {
            return seen != null ? seen : 1;
        }
        String text = new String(recorded, StandardCharsets.UTF_8);
        try {
            int shards = Integer.parseInt(text);
            if (shards >= 1 && shards <= ShardedQueue.MAX_SHARDS) {
                return shards;
            }
        } catch (NumberFormatException notANumber) {
            // said below, with the value
        }
        throw new UnreadableQueue("its " + keyBase(name) + "meta hash records shards '"
                + BodyPreview.ofText(text).text() + "', not a number from 1 to " + ShardedQueue.MAX_SHARDS);
    }

    /** A queue whose keys another program wrote otherwise than the component does; the message says how. */
    private static final class UnreadableQueue extends RuntimeException {

        UnreadableQueue(String message) {
            super(message, null, false, false);
        }
    }

    private void addRows(RedisClusterCommands<byte[], byte[]> commands, String name, Set<String> parts, int shards,
            List<QueueRef> rows) {
        if (parts.contains("stream")) {
            List<String> groups;
            try {
                groups = StreamGroups.of(commands, bytes(keyBase(name) + "stream"));
            } catch (RedisCommandExecutionException e) {
                // not a stream (another program wrote the key): the row's counts fail and say why
                groups = List.of();
            }
            if (groups.isEmpty()) {
                rows.add(new QueueRef(name, QueueMode.STREAM, null, shards));
            }
            new TreeSet<>(groups).stream().limit(MAX_GROUPS)
                    .forEach(group -> rows.add(new QueueRef(name, QueueMode.STREAM, group, shards)));
        } else if (parts.stream().anyMatch(LIST_PARTS::contains)) {
            rows.add(new QueueRef(name, QueueMode.LIST, null, shards));
        }
    }

    private String keyBase(String name) {
        return prefix + ":{" + name + "}:";
    }

    private static boolean isQueueName(String name) {
        try {
            QueueNames.validate(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
