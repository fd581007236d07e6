package dev.reliableredis.queue.list;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardMover;
import dev.reliableredis.queue.sharded.ShardPicker;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.calls.QueueCalls.keys;
import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * Moves a list-mode queue's messages from the layout of one shard count to another's, for a reshard of a queue that
 * holds messages. Each ready, delayed or dead message goes to the shard its shard key picks (kept in its stored
 * headers), or its id when it has none, as a send with the new count would put it, and keeps its id, record,
 * delivery count, failure, section and score (due time); ready messages keep their order within each old shard.
 * An acked id, remembered for the idempotency window, is copied to every shard: an acked message's shard key is not
 * kept, and a resend must be a no-op wherever its key puts it.
 *
 * <p>Each chunk of up to 500 is read, stored on its new shards (a no-op for an id the shard knows), and only then
 * removed from the old one, checked unchanged: a reshard that stops halfway (a Redis failure, a JVM that dies) loses
 * nothing, and run again it finishes without storing anything twice. The queue must not be used meanwhile:
 * {@link #requireIdle} refuses while a message is in flight or a consumer thread is live.
 */
public final class ListReshard implements ShardMover {

    private static final LuaScript READ = LuaScript.load("list/reshard-read");
    private static final LuaScript PUT = LuaScript.load("list/reshard-put");
    private static final LuaScript DROP = LuaScript.load("list/reshard-drop");
    private static final int CHUNK = 500;
    private static final int FIELDS = 6;

    private final RedisGateway redis;
    private final String keyPrefix;
    private final String queue;

    public ListReshard(RedisGateway redis, String keyPrefix, String queue) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.queue = queue;
    }

    /** Every message of a shard, ready, delayed, in flight or dead, has its record in the messages hash. */
    @Override
    public List<byte[]> messageKeys(String shard) {
        return List.of(new ListKeys(keyPrefix, shard).messages);
    }

    @Override
    public void requireIdle(int shards) {
        for (int shard = 0; shard < shards; shard++) {
            Shard s = new Shard(shard);
            List<Long> state = s.calls.run("reshard", READ, ScriptOutputType.MULTI, s.readKeys(), bytes("check"),
                    bytes(0), bytes(0));
            if (state.get(0) + state.get(1) + state.get(2) > 0) {
                throw new IllegalStateException("Queue '" + queue + "' cannot be resharded while it is consumed: shard "
                        + shard + " has " + state.get(0) + " message(s) and " + state.get(1) + " dead letter(s) in "
                        + "flight and " + state.get(2) + " live consumer thread(s) (a stopped thread counts for two of "
                        + "its pollTimeouts). Stop every consumer of the queue, and its producers, first");
            }
            String unmovable = unmovable(s);
            if (unmovable != null) {
                throw new IllegalStateException("Queue '" + queue + "' cannot be resharded: shard " + shard + " holds "
                        + unmovable + ", which a reshard does not move. Let them be consumed first");
            }
        }
    }

    /**
     * What a shard's {@code extras} hold that a reshard does not move, a priority or a group; null for none. A message
     * with a time to live alone is moved with it. Read with HSCAN, as the reshard reads every message anyway.
     */
    private String unmovable(Shard s) {
        boolean priority = false;
        boolean group = false;
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor from = cursor;
            MapScanCursor<byte[], byte[]> page = s.calls.run("reshard", () -> redis.commands().hscan(s.keys.extras,
                    from));
            for (byte[] value : page.getMap().values()) {
                String[] parts = text(value).split("\\|", 3);
                priority |= parts.length > 1 && !parts[1].isEmpty();
                group |= parts.length > 2 && !parts[2].isEmpty();
            }
            cursor = page;
        } while (!cursor.isFinished());
        return priority ? "messages sent with a priority (" + NewMessage.PRIORITY_HEADER + ")"
                : group ? "messages of a group (" + NewMessage.GROUP_HEADER + ")" : null;
    }

    @Override
    public long move(int from, int to) {
        long moved = 0;
        for (int shard = 0; shard < from; shard++) {
            Shard source = new Shard(shard);
            moved += moveReady(source, to);
            moved += moveSorted(source, "delayed", to);
            moved += moveSorted(source, "dead", to);
            copyAcked(source, to);
        }
        return moved;
    }

    /** The ready list, chunk by chunk from its head; the messages that stay go to its tail, in their order. */
    private long moveReady(Shard source, int to) {
        List<Long> state = source.calls.run("reshard", READ, ScriptOutputType.MULTI, source.readKeys(), bytes("check"),
                bytes(0), bytes(0));
        long left = state.get(3);
        long moved = 0;
        while (left > 0) {
            List<Row> chunk = source.read("ready", 0, (int) Math.min(CHUNK, left));
            if (chunk.isEmpty()) {
                break;
            }
            moved += moveChunk(source, "ready", chunk, to);
            left -= chunk.size();
        }
        return moved;
    }

    /** A sorted set (delayed or dead), chunk by chunk by rank; the messages that stay keep their place. */
    private long moveSorted(Shard source, String section, int to) {
        long moved = 0;
        int rank = 0;
        while (true) {
            List<Row> chunk = source.read(section, rank, CHUNK);
            if (chunk.isEmpty()) {
                return moved;
            }
            long gone = moveChunk(source, section, chunk, to);
            moved += gone;
            rank += chunk.size() - (int) gone;
        }
    }

    private long moveChunk(Shard source, String section, List<Row> chunk, int to) {
        Map<Integer, List<Row>> byTarget = new HashMap<>();
        List<Boolean> moves = new ArrayList<>(chunk.size());
        for (Row row : chunk) {
            if (row.record == null) {
                // an id without a stored message (written by something else), which a claim would drop too
                moves.add(true);
                continue;
            }
            int target = ShardPicker.shardOfStored(headersOf(row.record), row.id, to);
            boolean move = target != source.index;
            moves.add(move);
            if (move) {
                byTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(row);
            }
        }
        byTarget.forEach((target, rows) -> new Shard(target).put(section, rows));
        return source.drop(section, chunk, moves);
    }

    /** Every acked id on every other shard; removed from a shard the new count does not have. */
    private void copyAcked(Shard source, int to) {
        boolean shardStays = source.index < to;
        int rank = 0;
        while (true) {
            List<Row> chunk = source.read("acked", rank, CHUNK);
            if (chunk.isEmpty()) {
                return;
            }
            for (int target = 0; target < to; target++) {
                if (target != source.index) {
                    new Shard(target).put("acked", chunk);
                }
            }
            if (shardStays) {
                rank += chunk.size();
            } else {
                source.drop("acked", chunk, chunk.stream().map(row -> true).toList());
            }
        }
    }

    /** The record's headers JSON; null for a record that cannot be read (written by something else). */
    private static String headersOf(byte[] record) {
        MessageRecord read = MessageRecord.parse(record);
        return read.malformed() == null ? read.headers() : null;
    }

    /** One message as reshard-read returns it. */
    private record Row(String id, byte[] score, byte[] record, byte[] lease, byte[] failure, byte[] extras) {
    }

    /** One shard's keys and calls, by its index. */
    private final class Shard {

        final int index;
        final ListKeys keys;
        final QueueCalls calls;

        Shard(int index) {
            this.index = index;
            String name = QueueNames.shard(queue, index);
            this.keys = new ListKeys(keyPrefix, name);
            this.calls = new QueueCalls(redis, name);
        }

        byte[][] readKeys() {
            return keys(keys.ready, keys.delayed, keys.dead, keys.acked, keys.messages, keys.leases, keys.failure,
                    keys.inflight, keys.deadInflight, keys.claimers, keys.extras);
        }

        byte[][] putKeys() {
            return keys(keys.ready, keys.delayed, keys.dead, keys.acked, keys.messages, keys.leases, keys.failure,
                    keys.wake, keys.extras);
        }

        byte[][] dropKeys() {
            return keys(keys.ready, keys.delayed, keys.dead, keys.acked, keys.messages, keys.leases, keys.failure,
                    keys.extras);
        }

        List<Row> read(String section, int rank, int count) {
            List<Object> flat = calls.run("reshard", READ, ScriptOutputType.MULTI, readKeys(), bytes(section),
                    bytes(rank), bytes(count));
            List<Row> rows = new ArrayList<>(flat.size() / FIELDS);
            for (int i = 0; i < flat.size(); i += FIELDS) {
                rows.add(new Row(text(flat.get(i)), (byte[]) flat.get(i + 1), (byte[]) flat.get(i + 2),
                        (byte[]) flat.get(i + 3), (byte[]) flat.get(i + 4), (byte[]) flat.get(i + 5)));
            }
            return rows;
        }

        void put(String section, List<Row> rows) {
            List<byte[]> args = new ArrayList<>(rows.size() * 7);
            for (Row row : rows) {
                args.add(bytes(section));
                args.add(bytes(row.id));
                args.add(row.score);
                args.add(orEmpty(row.record));
                args.add(orEmpty(row.lease));
                args.add(orEmpty(row.failure));
                args.add(orEmpty(row.extras));
            }
            calls.run("reshard", PUT, ScriptOutputType.INTEGER, putKeys(), args);
        }

        long drop(String section, List<Row> chunk, List<Boolean> moves) {
            List<byte[]> args = new ArrayList<>(1 + 2 * chunk.size());
            args.add(bytes(section));
            for (int k = 0; k < chunk.size(); k++) {
                args.add(bytes(chunk.get(k).id));
                args.add(bytes(moves.get(k) ? "1" : "0"));
            }
            return calls.<Long>run("reshard", DROP, ScriptOutputType.INTEGER, dropKeys(), args);
        }

        private static byte[] orEmpty(byte[] value) {
            return value != null ? value : new byte[0];
        }
    }
}
