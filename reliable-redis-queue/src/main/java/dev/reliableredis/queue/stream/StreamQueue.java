package dev.reliableredis.queue.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.ClaimId;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimed;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.Hold;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.QueueSchedules;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.RateLimit;
import dev.reliableredis.queue.ReapResult;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.calls.QueueSchedule;
import dev.reliableredis.queue.calls.Replies;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.internal.ScriptSettings;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.schedule.ScheduleFired;
import dev.reliableredis.queue.schedule.ScheduleState;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.reliableredis.queue.calls.QueueCalls.keys;
import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * Stream mode: a Redis Stream read by a consumer group. A delivery's lease token is its owner (this consumer)
 * plus its delivery count in the group's pending entries list, which also counts the deliveries of consumers
 * that crashed. Failed entries stay pending and wait in a retry set; dead letters go to a dead-letter stream.
 * See {@code docs/redis-layout.md}.
 *
 * <p>A queue reads either its stream or, for a dead-letter consumer, its dead-letter stream with the same
 * group name.
 */
public final class StreamQueue implements ReliableQueue, QueueSchedules {

    private static final Logger LOG = LoggerFactory.getLogger(StreamQueue.class);
    private static final int BULK_BATCH = 1000;
    /**
     * Counting the lag reads whole entries, bodies included, into the script: the bound keeps that cheap. It is
     * needed only when Redis cannot tell the lag and the stream has other groups or keeps acked entries.
     */
    private static final int LAG_COUNT_LIMIT = 1_000;
    /**
     * How many pending entries of each consumer stats look at for the longest-held lease: XPENDING has no order by
     * idle time, and a consumer's first entries were claimed first.
     */
    private static final int INFLIGHT_AGE_LIMIT = 100;
    private static final int FIELDS_PER_BROWSED = 8;
    /** The rows of one claimed entry: entry id, delivery count, fields, part. */
    private static final int FIELDS_PER_CLAIMED = 4;
    /** The field of an entry with a time to live: when it expires (stream/enqueue). */
    private static final byte[] EXPIRES_FIELD = bytes("expires");
    /** Characters of a malformed value a failure shows, as the scripts do: anything else may have written it. */
    private static final int MAX_PART_SHOWN = 20;
    /** A stream entry id: a dead letter's origin_id is one unless something else wrote the dead letter. */
    private static final Pattern ENTRY_ID = Pattern.compile("\\d{1,18}-\\d{1,19}");

    private static final LuaScript ENQUEUE = LuaScript.load("stream/enqueue");
    private static final LuaScript CLAIM = LuaScript.load("stream/claim");
    private static final LuaScript ACK = LuaScript.load("stream/ack");
    private static final LuaScript HANDOFF = LuaScript.load("stream/handoff");
    private static final LuaScript NACK = LuaScript.load("stream/nack");
    private static final LuaScript EXTEND = LuaScript.load("stream/extend");
    private static final LuaScript RELEASE = LuaScript.load("stream/release");
    private static final LuaScript REAP = LuaScript.load("stream/reap");
    private static final LuaScript REDRIVE = LuaScript.load("stream/redrive");
    private static final LuaScript PURGE = LuaScript.load("stream/purge");
    private static final LuaScript STATS = LuaScript.load("stream/stats");
    private static final LuaScript LEAVE = LuaScript.load("stream/leave");
    private static final LuaScript BROWSE = LuaScript.load("stream/browse");
    private static final LuaScript PAUSE = LuaScript.load("pause");
    private static final LuaScript RESUME = LuaScript.load("resume");
    private static final LuaScript SCHEDULE_FIRE = LuaScript.load("stream/schedule-fire");

    private final RedisGateway redis;
    private final QueueCalls calls;
    private final String keyPrefix;
    private final String name;
    private final StreamOptions options;
    private final StreamKeys keys;
    private final QueueSchedule schedule;
    private final QueueSettings settings;
    private final boolean deadLetters;
    /** The endpoint's shard count, which each send and claim checks against its shard's marker; '': unchecked. */
    private final byte[] shards;
    /** The settings stream/claim.lua, stream/nack.lua and stream/reap.lua take, packed once. */
    private final byte[] claimSettings;
    private final byte[] nackSettings;
    private final byte[] reapSettings;
    /** Where the reaper's sweep of the id index goes on; each queue object walks the index on its own. */
    private volatile String idsCursor = "0";

    private StreamQueue(RedisGateway redis, String keyPrefix, String name, StreamOptions options,
            QueueSettings settings, boolean deadLetters, byte[] shards) {
        this.redis = redis;
        this.calls = new QueueCalls(redis, name);
        this.keyPrefix = keyPrefix;
        this.name = name;
        this.options = options;
        this.keys = new StreamKeys(keyPrefix, name, options);
        this.schedule = new QueueSchedule(redis, calls, keys.schedule);
        this.settings = settings;
        this.deadLetters = deadLetters;
        this.shards = shards;
        RateLimit rate = rateLimit();
        this.claimSettings = ScriptSettings.of().with("group", options.group())
                .with("consumer", options.consumerName()).with("visibility", settings.visibilityTimeout().toMillis())
                .with("pausable", deadLetters ? 0 : 1).with("rateLimit", rate.permits())
                .with("ratePeriod", rate.period().toMillis()).with("rateBurst", rate.burst())
                .with("maxInflight", deadLetters ? 0 : settings.maxInflight())
                .with("expiredMessages", settings.expiredMessages().value())
                .with("deleteAfterAck", deadLetters ? "always" : deletion()).with("shards", text(shards)).pack();
        this.nackSettings = QueueCalls.retryPolicy(settings, deadLetters).with("deleteAfterAck", deletion()).pack();
        this.reapSettings = ScriptSettings.of().with("group", options.group())
                .with("visibility", settings.visibilityTimeout().toMillis())
                .with("maxDeliveries", deadLetters ? 0 : settings.maxDeliveries())
                .with("batch", settings.reaperBatchSize()).with("maxLen", options.maxLen())
                .with("deleteAfterAck", deletion()).pack();
    }

    /** The queue, delivering the entries of its stream; its sends and claims do not check a shard count. */
    public static StreamQueue of(RedisGateway redis, String keyPrefix, String name, StreamOptions options,
            QueueSettings settings) {
        return of(redis, keyPrefix, name, options, settings, bytes(""));
    }

    /**
     * The queue, or shard of a queue, of an endpoint with {@code shards} shards: its sends and claims are refused
     * with an IllegalStateException when its shard's marker records another count ({@code ShardCount}).
     */
    public static StreamQueue of(RedisGateway redis, String keyPrefix, String name, StreamOptions options,
            QueueSettings settings, int shards) {
        return of(redis, keyPrefix, name, options, settings, bytes(shards));
    }

    private static StreamQueue of(RedisGateway redis, String keyPrefix, String name, StreamOptions options,
            QueueSettings settings, byte[] shards) {
        StreamQueue queue = new StreamQueue(redis, keyPrefix, name, options, settings, false, shards);
        if (redis.isCluster()) {
            queue.keys.requireOneSlot(name);
        }
        return queue;
    }

    @Override
    public StreamQueue deadLetters() {
        return new StreamQueue(redis, keyPrefix, name, options, settings, true, shards);
    }

    @Override
    public String name() {
        return name;
    }

    /** Removes this consumer from the group when it has nothing pending, so that names do not pile up. */
    @Override
    public void leave() {
        calls.run("leave", LEAVE, ScriptOutputType.INTEGER, keys(source()), bytes(options.group()),
                bytes(options.consumerName()));
    }

    @Override
    public Claimer newClaimer(Claimant claimant, ClaimId claimId) {
        return new StreamClaimer(this, claimant, claimId, redis);
    }

    @Override
    public CompletableFuture<List<Boolean>> enqueueAsync(List<NewMessage> messages) {
        if (messages.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<byte[]> args = new ArrayList<>(2 + 4 * messages.size());
        args.add(bytes(options.maxLen()));
        args.add(shards);
        try {
            addMessages(args, messages);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return calls.enqueue(ENQUEUE, enqueueKeys(), args.toArray(byte[][]::new));
    }

    /** stream/enqueue.lua's keys, as stream/handoff.lua and stream/schedule-fire.lua take them too. */
    private byte[][] enqueueKeys() {
        return keys(keys.stream, keys.dead, keys.ids, keys.acked, keys.delayed, keys.delayedMessages, keys.meta);
    }

    /** The arguments of stream/enqueue.lua: 4 per message; refuses a priority or a group id, naming the message. */
    private void addMessages(List<byte[]> args, List<NewMessage> messages) {
        for (NewMessage message : messages) {
            if (message.priority() != NewMessage.DEFAULT_PRIORITY) {
                throw new IllegalArgumentException("Message '" + message.id() + "' has priority " + message.priority()
                        + ": stream-mode queue '" + name + "' delivers in the order of its stream, without priorities");
            }
            if (message.groupId() != null) {
                throw new IllegalArgumentException("Message '" + message.id() + "' has group id '" + message.groupId()
                        + "': stream-mode queue '" + name + "' has no message groups (its consumer group reads the "
                        + "stream in one order for all)");
            }
            args.add(bytes(message.id()));
            args.add(message.body());
            args.add(bytes(message.encodedHeaders()));
            args.add(bytes(message.timeToLiveMs() > 0 ? message.delayMs() + "|" + message.timeToLiveMs()
                    : Long.toString(message.delayMs())));
        }
    }

    /** Claims, telling of the pause or rate limit that made it take nothing ({@link Hold}). */
    @Override
    public Claimed claim(Claimant owner, List<Claimant> claimants, int maxEach, ClaimId claimId) {
        byte[][] claimKeys = keys(source(), retry(), claimers(), deliveries(), keys.claim(deadLetters, owner.id()),
                keys.paused, keys.resumed, keys.rate, keys.capped, keys.freed, keys.dead, keys.ids, keys.limited,
                keys.meta);
        List<Object> rows = inGroup("claim", () -> calls.run("claim", CLAIM, ScriptOutputType.MULTI, claimKeys,
                claimSettings, bytes(maxEach), bytes(Claimant.ids(claimants)),
                bytes(Claimant.liveFor(claimants).toMillis()), bytes(claimId.value())));
        claimId.renew();
        Hold hold = Hold.ofReply(rows);
        if (hold != null) {
            return Claimed.held(hold);
        }
        List<List<Object>> deliveries = new ArrayList<>(rows.size() / FIELDS_PER_CLAIMED);
        for (int i = 0; i < rows.size(); i += FIELDS_PER_CLAIMED) {
            deliveries.add(rows.subList(i, i + FIELDS_PER_CLAIMED));
        }
        return Claimed.of(Claimed.split(claimants.size(), deliveries, row -> ((Long) row.get(3)).intValue(), row -> {
            @SuppressWarnings("unchecked")
            List<byte[]> fields = (List<byte[]>) row.get(2);
            return toDelivery(deadLetters, text(row.get(0)), (Long) row.get(1), fieldMap(fields));
        }));
    }

    /**
     * Claims one new entry with a blocking XREADGROUP on the given connection, waiting at most {@code block} for
     * entries to arrive: the waiting half of {@link StreamClaimer}, and like the claim script a read of the group.
     * One entry, a batch of one: a read cannot know the claimant's share, and its entry needs no batch mark.
     *
     * <p>A read cannot check the pause, and one that was waiting when a pause landed may still take an entry: the
     * EXISTS of the paused key written behind it on the connection, which Redis runs the moment the read returns,
     * tells so, and the claimer gives the entry back unrun ({@link NewEntry#giveBack}). So it does with an entry
     * that has a time to live, whose expiry only the claim script judges, on the Redis clock: given back, it is a
     * due retry that the next claim delivers or dead-letters.
     */
    CompletableFuture<NewEntry> readNew(StatefulConnection<byte[], byte[]> connection, Duration block) {
        return calls.async("claim", () -> {
            RedisClusterAsyncCommands<byte[], byte[]> redis = RedisGateway.async(connection);
            CompletableFuture<List<StreamMessage<byte[], byte[]>>> read = redis.xreadgroup(
                    Consumer.from(bytes(options.group()), bytes(options.consumerName())),
                    XReadArgs.Builder.count(1).block(block), XReadArgs.StreamOffset.lastConsumed(source()))
                    .toCompletableFuture();
            CompletableFuture<Long> paused = deadLetters ? CompletableFuture.completedFuture(0L)
                    : redis.exists(keys.paused).toCompletableFuture();
            return read.thenCombine(paused, (entries, exists) -> new NewEntry(toDeliveries(entries),
                    exists > 0 || entries.stream().anyMatch(StreamQueue::hasTimeToLive)));
        });
    }

    /** What a blocking read took, and whether it must go back unrun for the claim script to deliver. */
    record NewEntry(List<Delivery> deliveries, boolean giveBack) {
    }

    private static boolean hasTimeToLive(StreamMessage<byte[], byte[]> entry) {
        return entry.getBody().keySet().stream().anyMatch(field -> Arrays.equals(field, EXPIRES_FIELD));
    }

    /** Waits on the connection for the end of the hold, at most {@code block}. */
    CompletableFuture<?> await(StatefulConnection<byte[], byte[]> connection, Hold hold, Duration block) {
        byte[] stream = switch (hold.reason()) {
            case CAUGHT_UP -> source();
            case CAPPED -> keys.freed;
            case PAUSED, LIMITED -> keys.resumed;
        };
        return calls.async("claim", () -> hold.await(RedisGateway.async(connection), stream, block));
    }

    /** The rate limit this queue's claims keep to; a dead-letter consumer keeps to none. */
    private RateLimit rateLimit() {
        return deadLetters ? RateLimit.NONE : settings.rateLimit();
    }

    private List<Delivery> toDeliveries(List<StreamMessage<byte[], byte[]>> read) {
        List<Delivery> deliveries = new ArrayList<>(read.size());
        for (StreamMessage<byte[], byte[]> entry : read) {
            Map<String, byte[]> fields = new LinkedHashMap<>();
            entry.getBody().forEach((name, value) -> fields.put(text(name), value));
            deliveries.add(toDelivery(deadLetters, entry.getId(), 1, fields));
        }
        return deliveries;
    }

    @Override
    public CompletableFuture<List<Settled>> ackAsync(List<Lease> leases) {
        if (leases.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        return calls.settle("ack", ACK, ackKeys(), ackArgs(leases), Settled::ofAck);
    }

    /** The keys of stream/ack.lua, and of the consumed queue in stream/handoff.lua. */
    private byte[][] ackKeys() {
        return keys(source(), retry(), keys.ids, keys.acked, deliveries(), keys.capped, keys.freed);
    }

    /** The arguments of stream/ack.lua for these leases, and of stream/handoff.lua for one. */
    private List<byte[]> ackArgs(List<Lease> leases) {
        List<byte[]> args = ownerArgs();
        args.add(bytes(settings.idempotencyWindow().toMillis()));
        args.add(bytes(deadLetters ? "always" : deletion()));
        args.add(bytes(deadLetters ? "d:" : ""));
        for (Lease lease : leases) {
            args.add(bytes(lease.ref()));
            args.add(bytes(lease.token()));
            args.add(bytes(lease.messageId()));
        }
        return args;
    }

    @Override
    public boolean canHandOffTo(ReliableQueue target) {
        return target instanceof StreamQueue other && redis.sameServer(other.redis)
               && (!redis.isCluster() || SlotHash.getSlot(keys.stream) == SlotHash.getSlot(other.keys.stream));
    }

    @Override
    public CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        byte[] inbox = to == null ? null : Replies.inbox(keyPrefix, name, to);
        if (inbox != null && !Replies.inSlotOf(redis, inbox, keys.stream)) {
            return handOffAsync(lease, handOffs, null, null).thenCompose(settled -> replyIfAcked(settled, to, reply));
        }
        List<byte[]> keyList = new ArrayList<>(List.of(ackKeys()));
        List<byte[]> args = ackArgs(List.of(lease));
        if (inbox != null) {
            keyList.add(inbox);
        }
        Replies.addReply(args, to, reply);
        for (HandOff handOff : handOffs) {
            if (!canHandOffTo(handOff.target())) {
                throw new IllegalArgumentException(this + " cannot hand messages off to " + handOff.target()
                        + " in the script call of its ack: not a stream-mode queue on the same Redis and slot");
            }
            StreamQueue target = (StreamQueue) handOff.target();
            keyList.addAll(List.of(target.enqueueKeys()));
            args.add(bytes(target.options.maxLen()));
            args.add(target.shards);
            args.add(bytes(handOff.messages().size()));
            target.addMessages(args, handOff.messages());
        }
        CompletableFuture<List<Object>> call = calls.store("handoff", HANDOFF, ScriptOutputType.MULTI,
                keyList.toArray(new byte[0][]), args.toArray(new byte[0][]));
        return call.thenApply(codes -> Settled.ofAck((Long) codes.get(0)));
    }

    @Override
    public CompletableFuture<Void> replyAsync(ReplyTo to, Reply reply) {
        return Replies.push(calls, Replies.inbox(keyPrefix, name, to), to, reply);
    }

    @Override
    public CompletableFuture<List<Settled>> nackAsync(List<Failure> failures) {
        if (failures.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<byte[]> args = ownerArgs();
        args.add(nackSettings);
        QueueCalls.addFailures(args, failures);
        return calls.settle("nack", NACK, keys(source(), retry(), keys.dead, keys.ids, deliveries(), keys.capped,
                keys.freed), args,
                Settled::ofNack);
    }

    @Override
    public List<Settled> extend(List<Lease> leases) {
        if (leases.isEmpty()) {
            return List.of();
        }
        List<byte[]> args = ownerArgs();
        QueueCalls.addLeases(args, leases);
        return RedisGateway.await(calls.settle("extend", EXTEND, keys(source()), args, Settled::ofExtend));
    }

    @Override
    public int release(List<Lease> leases) {
        if (leases.isEmpty()) {
            return 0;
        }
        List<byte[]> args = ownerArgs();
        QueueCalls.addLeases(args, leases);
        Long released = calls.run("release", RELEASE, ScriptOutputType.INTEGER,
                keys(source(), retry(), deliveries()), args.toArray(byte[][]::new));
        return released.intValue();
    }

    @Override
    public ReapResult reap() {
        List<Object> moved = inGroup("reap", () -> calls.run("reap", REAP, ScriptOutputType.MULTI,
                keys(source(), retry(), keys.stream, keys.dead, keys.ids, keys.acked, keys.delayed,
                        keys.delayedMessages, deliveries(), claimers()),
                reapSettings, bytes(idsCursor)));
        idsCursor = text(moved.get(6));
        long takenOver = (Long) moved.get(0);
        return new ReapResult(deadLetters ? 0 : takenOver, (Long) moved.get(1), (Long) moved.get(2),
                deadLetters ? takenOver : 0, (Long) moved.get(3), (Long) moved.get(5) == 1);
    }

    @Override
    public long redrive(long limit) {
        // up to the newest dead letter now: consumers may dead-letter redriven messages again meanwhile
        List<StreamMessage<byte[], byte[]>> newest = calls.run("redrive",
                () -> redis.commands().xrevrange(keys.dead, Range.create("-", "+"), Limit.from(1)));
        if (newest.isEmpty()) {
            return 0;
        }
        byte[] until = bytes(newest.get(0).getId());
        long moved = 0;
        String from = "-";
        while (moved < limit) {
            long batch = Math.min(BULK_BATCH, limit - moved);
            List<Object> result = calls.run("redrive", REDRIVE, ScriptOutputType.MULTI,
                    redriveKeys(), bytes(options.group()), bytes(batch), bytes(options.maxLen()), bytes(from), until,
                    bytes(QueueSchedule.tickIdPrefix(name)));
            moved += (Long) result.get(0);
            String last = text(result.get(1));
            if (last.isEmpty()) {
                break;
            }
            from = "(" + last;
        }
        return moved;
    }

    @Override
    public boolean redrive(String messageId) {
        List<Object> result = calls.run("redrive", REDRIVE, ScriptOutputType.MULTI,
                redriveKeys(), bytes(options.group()), bytes(1), bytes(options.maxLen()), bytes("-"), bytes("+"),
                bytes(QueueSchedule.tickIdPrefix(name)), bytes(messageId));
        return (Long) result.get(0) == 1;
    }

    private byte[][] redriveKeys() {
        return keys(keys.dead, keys.stream, keys.ids, keys.deadRetry, keys.schedule, keys.delayed);
    }

    @Override
    public long purge() {
        long removed = 0;
        String deadFrom = "-";
        while (true) {
            List<Object> result = calls.run("purge", PURGE, ScriptOutputType.MULTI,
                    keys(keys.stream, keys.retry, keys.dead, keys.delayed, keys.delayedMessages, keys.ids,
                            keys.deadRetry, keys.deliveries),
                    bytes(options.group()), bytes(BULK_BATCH), bytes(deadFrom));
            removed += (Long) result.get(0);
            String lastDead = text(result.get(2));
            if (!lastDead.isEmpty()) {
                deadFrom = "(" + lastDead;
            }
            if ((Long) result.get(1) == 0) {
                return removed;
            }
        }
    }

    @Override
    public void pause(Duration duration) {
        calls.run("pause", PAUSE, ScriptOutputType.INTEGER, keys(keys.paused), bytes(calls.pauseMillis(duration)));
    }

    @Override
    public boolean resume() {
        Long was = calls.run("resume", RESUME, ScriptOutputType.INTEGER, keys(keys.paused, keys.resumed));
        return was == 1;
    }

    @Override
    public String declareSchedule(String cron, String zone) {
        return schedule.declare(cron, zone);
    }

    @Override
    public ScheduleState scheduleState() {
        return schedule.state();
    }

    @Override
    public ScheduleFired fireTicks(ScheduleState state, long last, String previousId, List<NewMessage> ticks) {
        List<byte[]> args = new ArrayList<>(List.of(bytes(state.cron()), bytes(state.last()), bytes(last),
                bytes(previousId), bytes(options.maxLen())));
        List<byte[]> keyList = new ArrayList<>(List.of(keys.schedule));
        keyList.addAll(List.of(enqueueKeys()));
        args.add(shards);
        addMessages(args, ticks);
        Long fired = calls.run("schedule", SCHEDULE_FIRE, ScriptOutputType.INTEGER, keyList.toArray(new byte[0][]),
                args);
        return ScheduleFired.of(fired);
    }

    @Override
    public boolean unschedule() {
        return schedule.remove();
    }

    @Override
    public QueueStats stats() {
        List<Long> counts = calls.run("stats", STATS, ScriptOutputType.MULTI,
                keys(keys.stream, keys.retry, keys.dead, keys.deadRetry, keys.delayed, keys.paused, keys.capped,
                        keys.limited),
                bytes(options.group()), bytes(LAG_COUNT_LIMIT), bytes(deletion()), bytes(INFLIGHT_AGE_LIMIT));
        return new QueueStats(counts.get(0), counts.get(1), counts.get(2), counts.get(3), counts.get(4),
                counts.get(5), counts.get(6), counts.get(7) == 1, counts.get(8) == 1, counts.get(9) == 1, 0);
    }

    @Override
    public List<BrowsedMessage> browse(QueueSection section, int limit) {
        calls.checkBrowseLimit(limit);
        List<Object> rows = calls.run("browse", BROWSE, ScriptOutputType.MULTI,
                keys(keys.stream, keys.retry, keys.dead, keys.delayed, keys.delayedMessages), bytes(options.group()),
                bytes(section.name().toLowerCase(Locale.ROOT)), bytes(limit));
        long now = (Long) rows.get(0);
        List<BrowsedMessage> messages = new ArrayList<>(rows.size() / FIELDS_PER_BROWSED);
        for (int i = 1; i < rows.size(); i += FIELDS_PER_BROWSED) {
            @SuppressWarnings("unchecked")
            List<byte[]> fields = (List<byte[]>) rows.get(i + 3);
            // decoded as a delivery is, so that a browsed message reads as its delivery will
            Delivery d = toDelivery((Long) rows.get(i + 1) == 1, text(rows.get(i)), (Long) rows.get(i + 2),
                    fieldMap(fields));
            String malformed = rows.get(i + 7) != null ? text(rows.get(i + 7)) : malformedExpiry(fields);
            messages.add(new BrowsedMessage(d.messageId(), section, d.body(), d.fields(), d.headers(),
                    d.enqueuedAt() < 0 ? -1 : Math.max(0, now - d.enqueuedAt()), d.deliveryCount(),
                    (Long) rows.get(i + 4), (Long) rows.get(i + 5), malformed != null ? malformed : d.failure(),
                    text(rows.get(i + 6))));
        }
        return messages;
    }

    private byte[] source() {
        return deadLetters ? keys.dead : keys.stream;
    }

    private byte[] retry() {
        return deadLetters ? keys.deadRetry : keys.retry;
    }

    private byte[] claimers() {
        return deadLetters ? keys.deadClaimers : keys.claimers;
    }

    private byte[] deliveries() {
        return deadLetters ? keys.deadDeliveries : keys.deliveries;
    }

    private String deletion() {
        return options.deleteAfterAck() ? "all-groups" : "never";
    }

    private List<byte[]> ownerArgs() {
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(options.group()));
        args.add(bytes(options.consumerName()));
        return args;
    }

    /** Runs a call that needs the group, creating the group once when Redis says it is missing. */
    private <T> T inGroup(String operation, Supplier<T> queueCall) {
        try {
            return queueCall.get();
        } catch (QueueException e) {
            if (!(e.getCause() instanceof RedisCommandExecutionException cause) || !isNoGroup(cause.getMessage())) {
                throw e;
            }
            calls.run("create group", () -> {
                createGroup();
                return null;
            });
            return queueCall.get();
        }
    }

    /**
     * Redis 7 answers a script whose group is missing with the command's own error ("NOGROUP No such key ...");
     * Redis 6.2 wraps it ("ERR Error running script (call to f_...): @user_script:12: NOGROUP No such key ...").
     */
    private static boolean isNoGroup(String error) {
        return error != null && (error.startsWith("NOGROUP ") || error.contains(": NOGROUP "));
    }

    private void createGroup() {
        String start = deadLetters ? "0" : options.groupStartId();
        try {
            redis.commands().xgroupCreate(XReadArgs.StreamOffset.from(source(), start), bytes(options.group()),
                    XGroupCreateArgs.Builder.mkstream());
            LOG.info("Created consumer group '{}' on stream '{}' of queue '{}', starting at '{}'",
                    OneLine.of(options.group()), OneLine.of(text(source())), name, start);
        } catch (RedisBusyException e) {
            LOG.debug("Consumer group '{}' on '{}' exists already", OneLine.of(options.group()),
                    OneLine.of(text(source())));
        }
    }

    /** A delivery of an entry of the stream, or of the dead-letter stream when {@code deadLetter}. */
    private Delivery toDelivery(boolean deadLetter, String entryId, long pendingCount, Map<String, byte[]> fields) {
        String token = Long.toString(pendingCount);
        if (deadLetter) {
            String messageId = fields.containsKey("id") ? text(fields.get("id")) : text(fields.get("origin_id"));
            String origin = text(fields.get("origin_id"));
            String id = messageId != null ? messageId : entryId;
            return new Delivery(id, new Lease(id, entryId, token),
                    intOr(text(fields.get("deliveries")), (int) pendingCount),
                    enqueuedAt(fields, origin != null && ENTRY_ID.matcher(origin).matches() ? origin : entryId),
                    orEmpty(fields.get("content")), null,
                    calls.headers(id, text(fields.get("headers"))), text(fields.get("failure")));
        }
        if (fields.containsKey("body") && fields.containsKey("id")) {
            String id = text(fields.get("id"));
            return new Delivery(id, new Lease(id, entryId, token), (int) pendingCount, enqueuedAt(fields, entryId),
                    fields.get("body"), null, calls.headers(id, text(fields.get("headers"))), null);
        }
        Map<String, String> foreign = new LinkedHashMap<>();
        fields.forEach((k, v) -> foreign.put(k, text(v)));
        return new Delivery(entryId, new Lease(entryId, entryId, token), (int) pendingCount, entryTime(entryId),
                new byte[0], foreign, Map.of(), null);
    }

    /**
     * What is wrong with an entry of the component's (body first) whose last field, expires, is not a number, in the
     * words of stream/claim, which dead-letters it; null for any other entry.
     */
    private static String malformedExpiry(List<byte[]> fields) {
        int n = fields.size();
        if (n < 4 || !"body".equals(text(fields.get(0))) || !"expires".equals(text(fields.get(n - 2)))) {
            return null;
        }
        String expires = text(fields.get(n - 1));
        if (expires.matches("\\d+")) {
            return null;
        }
        String shown = expires.length() > MAX_PART_SHOWN ? expires.substring(0, MAX_PART_SHOWN) + "..." : expires;
        return "malformed record: expires '" + shown + "' is not a number";
    }

    /** The enqueued field, else the time of the entry; -1 for neither (a malformed delayed message browsed). */
    private static long enqueuedAt(Map<String, byte[]> fields, String entryId) {
        String enqueued = text(fields.get("enqueued"));
        if (enqueued != null && enqueued.matches("\\d{1,18}")) {
            return Long.parseLong(enqueued);
        }
        return ENTRY_ID.matcher(entryId).matches() ? entryTime(entryId) : -1;
    }

    /** The milliseconds part of a stream entry id: when Redis added the entry. */
    static long entryTime(String entryId) {
        int dash = entryId.indexOf('-');
        return Long.parseLong(dash < 0 ? entryId : entryId.substring(0, dash));
    }

    private static int intOr(String text, int fallback) {
        return text != null && text.matches("\\d{1,9}") ? Integer.parseInt(text) : fallback;
    }

    private static byte[] orEmpty(byte[] value) {
        return value != null ? value : new byte[0];
    }

    private static Map<String, byte[]> fieldMap(List<byte[]> flat) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(text(flat.get(i)), flat.get(i + 1));
        }
        return fields;
    }

    @Override
    public String toString() {
        return "StreamQueue[" + name + (deadLetters ? ", dead letters" : "") + "]";
    }
}
