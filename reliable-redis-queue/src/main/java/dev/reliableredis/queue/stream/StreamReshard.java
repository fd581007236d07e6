package dev.reliableredis.queue.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardMover;
import dev.reliableredis.queue.sharded.ShardPicker;
import io.lettuce.core.ScriptOutputType;

import static dev.reliableredis.queue.calls.QueueCalls.keys;
import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * Moves a stream-mode queue's messages from the layout of one shard count to another's, for a reshard of a queue
 * that holds messages, as {@code list.ListReshard} does in list mode: entries no group has read yet, dead letters
 * no dead-letter consumer has read yet and delayed messages go to the shard their shard key (kept in their headers)
 * or their id picks, as new entries with the same fields, in their order within each old shard; acked ids are
 * copied to every shard. Entries the groups have read and acked (kept with {@code deleteAfterAck=never}) stay
 * where they are, as history.
 *
 * <p>Nothing may be pending in any group: an entry's delivery count lives in its group's pending entries list,
 * which a new stream's group gets only by delivering the entry. So the reshard is refused while anything is in
 * flight or waiting for a retry, while a consumer thread is live, and while a stream's groups are at different
 * positions (an entry one group read and another did not). Each chunk is stored on its new shards before it is
 * removed from its old one, so a reshard that stops halfway loses nothing and finishes when run again.
 */
public final class StreamReshard implements ShardMover {

    private static final LuaScript READ = LuaScript.load("stream/reshard-read");
    private static final LuaScript PUT = LuaScript.load("stream/reshard-put");
    private static final LuaScript DROP = LuaScript.load("stream/reshard-drop");
    private static final int CHUNK = 500;
    /** The keys a reshard reads and writes are the shard's own, whatever the group: any options name them. */
    private static final StreamOptions LAYOUT = new StreamOptions(null, null, "reshard", "0", "reshard", 0, true);

    private final RedisGateway redis;
    private final String keyPrefix;
    private final String queue;

    private final StreamOptions options;

    public StreamReshard(RedisGateway redis, String keyPrefix, String queue) {
        this(redis, keyPrefix, queue, LAYOUT);
    }

    /** @param options name the stream and the dead-letter stream of an unsharded queue where they are its own */
    public StreamReshard(RedisGateway redis, String keyPrefix, String queue, StreamOptions options) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.queue = queue;
        this.options = options;
    }

    /**
     * The dead letters and the delayed messages: what only the component writes. Not the stream, which other programs
     * may write (streamKey) with the fields the contract gives, whatever the layout version.
     */
    @Override
    public List<byte[]> messageKeys(String shard) {
        StreamKeys keys = new StreamKeys(keyPrefix, shard, options);
        return List.of(keys.dead, keys.delayedMessages);
    }

    @Override
    public void requireIdle(int shards) {
        for (int shard = 0; shard < shards; shard++) {
            Shard s = new Shard(shard);
            List<Object> state = s.calls.run("reshard", READ, ScriptOutputType.MULTI, s.keys(), bytes("check"),
                    bytes(""), bytes(0));
            long pending = (Long) state.get(0);
            List<String> groups = s.groups(state).stream().distinct().toList();
            byte[][] claimers = new byte[6 + 2 * groups.size()][];
            System.arraycopy(s.keys(), 0, claimers, 0, 6);
            for (int g = 0; g < groups.size(); g++) {
                System.arraycopy(StreamKeys.claimerSets(keyPrefix, s.name, groups.get(g)), 0, claimers, 6 + 2 * g, 2);
            }
            long live = s.calls.<Long>run("reshard", READ, ScriptOutputType.INTEGER, claimers, bytes("live"),
                    bytes(""), bytes(0));
            if (pending + live > 0) {
                throw new IllegalStateException("Queue '" + queue + "' cannot be resharded while it is consumed: shard "
                        + shard + " has " + pending + " entr(ies) pending (in flight or waiting for a retry) and "
                        + live + " live consumer thread(s) (a stopped thread counts for two of its pollTimeouts). "
                        + "Stop every consumer of the queue, and its producers, and let the retries run first");
            }
            if ((Long) state.get(1) != 0) {
                throw new IllegalStateException("Queue '" + queue + "' cannot be resharded while its groups " + groups
                        + " have read its stream on shard " + shard + " to different positions: consume with the "
                        + "group that is behind until it has caught up");
            }
        }
    }

    @Override
    public long move(int from, int to) {
        long moved = 0;
        for (int shard = 0; shard < from; shard++) {
            Shard source = new Shard(shard);
            List<Object> check = source.calls.run("reshard", READ, ScriptOutputType.MULTI, source.keys(),
                    bytes("check"), bytes(""), bytes(0));
            List<String> groups = source.groups(check);
            int ofStream = ((Long) check.get(2)).intValue();
            moved += moveEntries(source, "ready", groups.subList(0, ofStream), to);
            moved += moveEntries(source, "dead", groups.subList(ofStream, groups.size()), to);
            moved += moveDelayed(source, to);
            copyAcked(source, to);
        }
        return moved;
    }

    /** A stream's unread entries, chunk by chunk after the last one looked at; those that stay keep their place. */
    private long moveEntries(Shard source, String section, List<String> groups, int to) {
        long moved = 0;
        String after = "";
        while (true) {
            List<Object> flat = source.read(section, after);
            if (flat.isEmpty()) {
                return moved;
            }
            Map<Integer, List<byte[]>> puts = new HashMap<>();
            List<byte[]> drops = new ArrayList<>();
            for (int i = 0; i < flat.size(); i += 3) {
                String entry = text(flat.get(i));
                String id = flat.get(i + 1) == null ? "" : text(flat.get(i + 1));
                @SuppressWarnings("unchecked")
                List<byte[]> fields = (List<byte[]>) flat.get(i + 2);
                int target = ShardPicker.shardOfStored(headersOf(fields), id.isEmpty() ? entry : id, to);
                if (target != source.index) {
                    List<byte[]> put = puts.computeIfAbsent(target, t -> new ArrayList<>());
                    put.add(bytes(id));
                    put.add(bytes(fields.size()));
                    put.addAll(fields);
                    drops.add(bytes(entry));
                    drops.add(bytes(id));
                }
                after = entry;
            }
            puts.forEach((target, args) -> new Shard(target).put(section, groups, args));
            moved += source.drop(section, drops);
        }
    }

    private long moveDelayed(Shard source, int to) {
        long moved = 0;
        int rank = 0;
        while (true) {
            List<Object> flat = source.read("delayed", Integer.toString(rank));
            if (flat.isEmpty()) {
                return moved;
            }
            Map<Integer, List<byte[]>> puts = new HashMap<>();
            List<byte[]> drops = new ArrayList<>();
            int stays = 0;
            for (int i = 0; i < flat.size(); i += 4) {
                String id = text(flat.get(i));
                int target = ShardPicker.shardOfStored(text(flat.get(i + 3)), id, to);
                if (target == source.index || flat.get(i + 2) == null) {
                    stays++;
                    continue;
                }
                List<byte[]> put = puts.computeIfAbsent(target, t -> new ArrayList<>());
                put.add(bytes(id));
                put.add((byte[]) flat.get(i + 1));
                put.add((byte[]) flat.get(i + 2));
                drops.add(bytes(id));
                drops.add(bytes(id));
            }
            puts.forEach((target, args) -> new Shard(target).put("delayed", List.of(), args));
            moved += source.drop("delayed", drops);
            rank += stays;
        }
    }

    /** Every acked id on every other shard; removed from a shard the new count does not have. */
    private void copyAcked(Shard source, int to) {
        boolean shardStays = source.index < to;
        int rank = 0;
        while (true) {
            List<Object> flat = source.read("acked", Integer.toString(rank));
            if (flat.isEmpty()) {
                return;
            }
            List<byte[]> args = new ArrayList<>(flat.size());
            List<byte[]> drops = new ArrayList<>(flat.size());
            for (int i = 0; i < flat.size(); i += 2) {
                args.add((byte[]) flat.get(i));
                args.add((byte[]) flat.get(i + 1));
                drops.add((byte[]) flat.get(i));
                drops.add((byte[]) flat.get(i));
            }
            for (int target = 0; target < to; target++) {
                if (target != source.index) {
                    new Shard(target).put("acked", List.of(), args);
                }
            }
            if (shardStays) {
                rank += flat.size() / 2;
            } else {
                source.drop("acked", drops);
            }
        }
    }

    /** The headers JSON among an entry's fields, or null. */
    private static String headersOf(List<byte[]> fields) {
        for (int f = 0; f + 1 < fields.size(); f += 2) {
            if ("headers".equals(text(fields.get(f)))) {
                return text(fields.get(f + 1));
            }
        }
        return null;
    }

    /** One shard's keys and calls, by its index. */
    private final class Shard {

        final int index;
        final String name;
        final StreamKeys streamKeys;
        final QueueCalls calls;

        Shard(int index) {
            this.index = index;
            this.name = QueueNames.shard(queue, index);
            this.streamKeys = new StreamKeys(keyPrefix, name, LAYOUT);
            this.calls = new QueueCalls(redis, name);
        }

        byte[][] keys() {
            return QueueCalls.keys(streamKeys.stream, streamKeys.dead, streamKeys.ids, streamKeys.acked,
                    streamKeys.delayed, streamKeys.delayedMessages);
        }

        /** The names of the groups of the stream, then of the dead-letter stream, as a check returns them. */
        List<String> groups(List<Object> check) {
            List<String> groups = new ArrayList<>();
            for (int i = 3; i < check.size(); i++) {
                groups.add(text(check.get(i)));
            }
            return groups;
        }

        List<Object> read(String section, String from) {
            return calls.run("reshard", READ, ScriptOutputType.MULTI, keys(), bytes(section), bytes(from),
                    bytes(CHUNK));
        }

        void put(String section, List<String> groups, List<byte[]> messages) {
            List<byte[]> args = new ArrayList<>(2 + groups.size() + messages.size());
            args.add(bytes(section));
            args.add(bytes(groups.size()));
            groups.forEach(group -> args.add(bytes(group)));
            args.addAll(messages);
            calls.run("reshard", PUT, ScriptOutputType.INTEGER, keys(), args);
        }

        long drop(String section, List<byte[]> pairs) {
            if (pairs.isEmpty()) {
                return 0;
            }
            List<byte[]> args = new ArrayList<>(1 + pairs.size());
            args.add(bytes(section));
            args.addAll(pairs);
            return calls.<Long>run("reshard", DROP, ScriptOutputType.INTEGER, keys(), args);
        }
    }
}
