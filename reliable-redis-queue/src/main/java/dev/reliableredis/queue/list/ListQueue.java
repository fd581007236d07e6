package dev.reliableredis.queue.list;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

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
import dev.reliableredis.queue.calls.PollingClaimer;
import dev.reliableredis.queue.calls.QueueCalls;
import dev.reliableredis.queue.calls.QueueSchedule;
import dev.reliableredis.queue.calls.Replies;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.internal.ScriptSettings;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.schedule.ScheduleFired;
import dev.reliableredis.queue.schedule.ScheduleState;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import static dev.reliableredis.queue.calls.QueueCalls.keys;
import static dev.reliableredis.queue.internal.RedisBytes.bytes;
import static dev.reliableredis.queue.internal.RedisBytes.text;

/**
 * List mode: a ready List of ids, an in-flight ZSet scored by lease deadline, a delayed ZSet, a dead-letter
 * ZSet, a hash of the stored messages and one of their delivery states, by id. See {@code docs/redis-layout.md}.
 *
 * <p>A queue reads either its ready messages or, for a dead-letter consumer, its dead letters; both views
 * share the keys and differ only in where claims come from and where failures go.
 */
public final class ListQueue implements ReliableQueue, QueueSchedules {

    private static final int FIELDS_PER_DELIVERY = 5;
    private static final int FIELDS_PER_BROWSED = 6;
    private static final int BULK_BATCH = 1000;

    private static final LuaScript ENQUEUE = LuaScript.load("list/enqueue");
    private static final LuaScript CLAIM = LuaScript.load("list/claim");
    private static final LuaScript CLAIM_DEAD = LuaScript.load("list/claim-dead");
    private static final LuaScript ACK = LuaScript.load("list/ack");
    private static final LuaScript HANDOFF = LuaScript.load("list/handoff");
    private static final LuaScript NACK = LuaScript.load("list/nack");
    private static final LuaScript EXTEND = LuaScript.load("list/extend");
    private static final LuaScript RELEASE = LuaScript.load("list/release");
    private static final LuaScript REAP = LuaScript.load("list/reap");
    private static final LuaScript REDRIVE = LuaScript.load("list/redrive");
    private static final LuaScript PURGE = LuaScript.load("list/purge");
    private static final LuaScript STATS = LuaScript.load("list/stats");
    private static final LuaScript BROWSE = LuaScript.load("list/browse");
    private static final LuaScript PAUSE = LuaScript.load("pause");
    private static final LuaScript RESUME = LuaScript.load("resume");
    private static final LuaScript SCHEDULE_FIRE = LuaScript.load("list/schedule-fire");

    private final RedisGateway redis;
    private final QueueCalls calls;
    private final String keyPrefix;
    private final String name;
    private final ListKeys keys;
    private final QueueSchedule schedule;
    private final QueueSettings settings;
    private final boolean deadLetters;
    /** The endpoint's shard count, which each send and claim checks against its shard's marker; '': unchecked. */
    private final byte[] shards;
    /** The settings list/claim.lua, list/nack.lua and list/reap.lua take, packed once. */
    private final byte[] claimSettings;
    private final byte[] nackSettings;
    private final byte[] reapSettings;

    private ListQueue(RedisGateway redis, String keyPrefix, String name, QueueSettings settings,
            boolean deadLetters, byte[] shards) {
        this.redis = redis;
        this.calls = new QueueCalls(redis, name);
        this.keyPrefix = keyPrefix;
        this.name = name;
        this.keys = new ListKeys(keyPrefix, name);
        this.schedule = new QueueSchedule(redis, calls, keys.schedule);
        this.settings = settings;
        this.deadLetters = deadLetters;
        this.shards = shards;
        RateLimit rate = settings.rateLimit();
        this.claimSettings = ScriptSettings.of().with("visibility", settings.visibilityTimeout().toMillis())
                .with("maxInflight", settings.maxInflight()).with("rateLimit", rate.permits())
                .with("ratePeriod", rate.period().toMillis()).with("rateBurst", rate.burst())
                .with("expiredMessages", settings.expiredMessages().value())
                .with("priorityMode", settings.priorityMode().value())
                .with("groupOnDeadLetter", settings.groupOnDeadLetter().value()).with("shards", text(shards)).pack();
        this.nackSettings = QueueCalls.retryPolicy(settings, deadLetters)
                .with("groupOnDeadLetter", settings.groupOnDeadLetter().value()).pack();
        this.reapSettings = ScriptSettings.of().with("maxDeliveries", settings.maxDeliveries())
                .with("batch", settings.reaperBatchSize())
                .with("groupOnDeadLetter", settings.groupOnDeadLetter().value()).pack();
    }

    /** The queue, delivering its ready messages; its sends and claims do not check a shard count. */
    public static ListQueue of(RedisGateway redis, String keyPrefix, String name, QueueSettings settings) {
        return new ListQueue(redis, keyPrefix, name, settings, false, bytes(""));
    }

    /**
     * The queue, or shard of a queue, of an endpoint with {@code shards} shards: its sends and claims are refused
     * with an IllegalStateException when its shard's marker records another count ({@code ShardCount}).
     */
    public static ListQueue of(RedisGateway redis, String keyPrefix, String name, QueueSettings settings,
            int shards) {
        return new ListQueue(redis, keyPrefix, name, settings, false, bytes(shards));
    }

    @Override
    public ListQueue deadLetters() {
        return new ListQueue(redis, keyPrefix, name, settings, true, shards);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Claimer newClaimer(Claimant claimant, ClaimId claimId) {
        // dead letters fall due by time and leave no wake-up token: their consumers look every maxWait
        return deadLetters ? new PollingClaimer(max -> claim(claimant, max))
                : new ListClaimer(this, claimant, claimId, calls, redis, keys.wake, keys.resumed);
    }

    @Override
    public CompletableFuture<List<Boolean>> enqueueAsync(List<NewMessage> messages) {
        if (messages.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<byte[]> args = new ArrayList<>(1 + 3 * messages.size());
        args.add(shards);
        addMessages(args, messages);
        return calls.enqueue(ENQUEUE, enqueueKeys(), args.toArray(new byte[0][]));
    }

    /** The keys of list/enqueue.lua, as list/handoff.lua and list/schedule-fire.lua take them too. */
    private byte[][] enqueueKeys() {
        return keys(keys.ready, keys.delayed, keys.messages, keys.acked, keys.wake, keys.extras, keys.prioritized,
                keys.seq, keys.groups, keys.grouped, keys.meta);
    }

    /**
     * Each message's three arguments of list/enqueue.lua: id, payload and options, its delay alone when it has no time
     * to live, priority or group (each argument is one more string for Redis to read and Lua to make), else all four.
     */
    private static void addMessages(List<byte[]> args, List<NewMessage> messages) {
        for (NewMessage message : messages) {
            args.add(bytes(message.id()));
            args.add(MessageRecord.payload(message.encodedHeaders(), message.body()));
            boolean plain = message.timeToLiveMs() == 0 && message.priority() == NewMessage.DEFAULT_PRIORITY
                            && message.groupId() == null;
            args.add(plain ? bytes(message.delayMs()) : bytes(message.delayMs() + "|" + message.timeToLiveMs() + "|"
                    + message.priority() + "|" + (message.groupId() == null ? "" : message.groupId())));
        }
    }

    @Override
    public Claimed claim(Claimant owner, List<Claimant> claimants, int maxEach, ClaimId claimId) {
        Claimed claimed = toClaimed(RedisGateway.await(claimRows(null, owner, claimants, maxEach, claimId.value())),
                claimants.size());
        claimId.renew();
        return claimed;
    }

    /**
     * A claim on the given connection's commands (on the queue's command connection when null), not waited for: its
     * reply as Redis gave it, which the thread that waits for it reads ({@link #toClaimed}), not Lettuce's I/O thread,
     * which every call of the connection shares. Dead letters are claimed without a record of the claim, all for the
     * first claimant: a dead-letter consumer's lost claim waits out its lease.
     */
    CompletableFuture<List<Object>> claimRows(RedisClusterAsyncCommands<byte[], byte[]> on, Claimant owner,
            List<Claimant> claimants, int maxEach, String claimId) {
        return deadLetters
                ? calls.runAsync(on, "claim", CLAIM_DEAD, ScriptOutputType.MULTI,
                        keys(keys.dead, keys.deadInflight, keys.messages, keys.leases, keys.failure, keys.extras),
                        bytes(settings.visibilityTimeout().toMillis()), bytes(maxEach), bytes(ClaimId.next()))
                : calls.runAsync(on, "claim", CLAIM, ScriptOutputType.MULTI, claimKeys(owner), claimSettings,
                        bytes(maxEach), bytes(Claimant.ids(claimants)), bytes(Claimant.liveFor(claimants).toMillis()),
                        bytes(claimId));
    }

    private byte[][] claimKeys(Claimant owner) {
        return keys(keys.ready, keys.inflight, keys.messages, keys.leases, keys.wake, keys.claimers,
                keys.claim(owner.id()), keys.paused, keys.resumed, keys.capped, keys.rate, keys.extras, keys.dead,
                keys.failure, keys.limited, keys.prioritized, keys.cursor, keys.groups, keys.grouped, keys.meta);
    }

    /**
     * The rows of a claim, in parts for its claimants; the last number, the ready messages left behind, is for the
     * claim's own wake-up. Claim-dead's rows carry a failure where the claim's carry a part: all go to the first.
     */
    Claimed toClaimed(List<Object> reply, int claimants) {
        Hold hold = Hold.ofReply(reply);
        if (hold != null) {
            return Claimed.held(hold);
        }
        int count = reply.size() / FIELDS_PER_DELIVERY;
        List<List<Object>> rows = new ArrayList<>(count);
        for (int i = 0; i < count * FIELDS_PER_DELIVERY; i += FIELDS_PER_DELIVERY) {
            rows.add(reply.subList(i, i + FIELDS_PER_DELIVERY));
        }
        return Claimed.of(Claimed.split(claimants, rows,
                row -> deadLetters ? 1 : ((Long) row.get(4)).intValue(), this::toDelivery));
    }

    /** A claimed message; a malformed record only comes from claim-dead, which delivers it whole. */
    private Delivery toDelivery(List<Object> row) {
        String id = text(row.get(0));
        MessageRecord record = MessageRecord.parse((byte[]) row.get(3));
        return new Delivery(id, new Lease(id, id, text(row.get(1))), ((Long) row.get(2)).intValue(),
                record.enqueuedAt(), record.body(), null, calls.headers(id, record.headers()),
                record.malformed() != null ? record.malformed() : deadLetters ? text(row.get(4)) : null);
    }

    @Override
    public CompletableFuture<List<Settled>> ackAsync(List<Lease> leases) {
        if (leases.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<byte[]> args = new ArrayList<>(1 + 2 * leases.size());
        args.add(bytes(settings.idempotencyWindow().toMillis()));
        QueueCalls.addLeases(args, leases);
        return calls.settle("ack", ACK, ackKeys(), args, Settled::ofAck);
    }

    /** The keys of list/ack.lua, and of the consumed queue in list/handoff.lua. */
    private byte[][] ackKeys() {
        return keys(inflight(), keys.messages, keys.leases, keys.failure, keys.acked, keys.capped, keys.wake,
                keys.extras, keys.groups, keys.grouped, keys.ready);
    }

    @Override
    public boolean canHandOffTo(ReliableQueue target) {
        return target instanceof ListQueue other && redis.sameServer(other.redis)
               && (!redis.isCluster() || SlotHash.getSlot(keys.ready) == SlotHash.getSlot(other.keys.ready));
    }

    @Override
    public CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        byte[] inbox = to == null ? null : Replies.inbox(keyPrefix, name, to);
        if (inbox != null && !Replies.inSlotOf(redis, inbox, keys.ready)) {
            return handOffAsync(lease, handOffs, null, null).thenCompose(settled -> replyIfAcked(settled, to, reply));
        }
        List<byte[]> keyList = new ArrayList<>(List.of(ackKeys()));
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(settings.idempotencyWindow().toMillis()));
        QueueCalls.addLeases(args, List.of(lease));
        if (inbox != null) {
            keyList.add(inbox);
        }
        Replies.addReply(args, to, reply);
        for (HandOff handOff : handOffs) {
            if (!canHandOffTo(handOff.target())) {
                throw new IllegalArgumentException(this + " cannot hand messages off to " + handOff.target()
                        + " in the script call of its ack: not a list-mode queue on the same Redis and slot");
            }
            ListQueue target = (ListQueue) handOff.target();
            keyList.addAll(List.of(target.enqueueKeys()));
            args.add(target.shards);
            args.add(bytes(handOff.messages().size()));
            addMessages(args, handOff.messages());
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
        List<byte[]> args = new ArrayList<>(1 + 4 * failures.size());
        args.add(nackSettings);
        QueueCalls.addFailures(args, failures);
        byte[] retryTarget = deadLetters ? keys.dead : keys.delayed;
        return calls.settle("nack", NACK, keys(inflight(), retryTarget, keys.dead, keys.leases, keys.failure,
                keys.capped, keys.wake, keys.extras, keys.groups, keys.grouped, keys.ready), args,
                Settled::ofNack);
    }

    @Override
    public List<Settled> extend(List<Lease> leases) {
        if (leases.isEmpty()) {
            return List.of();
        }
        List<byte[]> args = new ArrayList<>(1 + 2 * leases.size());
        args.add(bytes(settings.visibilityTimeout().toMillis()));
        QueueCalls.addLeases(args, leases);
        return RedisGateway.await(calls.settle("extend", EXTEND, keys(inflight(), keys.leases), args, Settled::ofExtend));
    }

    @Override
    public int release(List<Lease> leases) {
        if (leases.isEmpty()) {
            return 0;
        }
        List<byte[]> args = new ArrayList<>(1 + 2 * leases.size());
        args.add(bytes(deadLetters ? "dead" : "ready"));
        QueueCalls.addLeases(args, leases);
        Long released = calls.run("release", RELEASE, ScriptOutputType.INTEGER,
                keys(inflight(), deadLetters ? keys.dead : keys.ready, keys.leases, keys.wake, keys.prioritized,
                        keys.extras, keys.seq), args);
        return released.intValue();
    }

    @Override
    public ReapResult reap() {
        List<Long> moved = calls.run("reap", REAP, ScriptOutputType.MULTI,
                keys(keys.ready, keys.inflight, keys.delayed, keys.dead, keys.deadInflight, keys.leases, keys.failure,
                        keys.acked, keys.wake, keys.messages, keys.claimers, keys.prioritized, keys.extras,
                        keys.seq, keys.groups, keys.grouped),
                reapSettings);
        return new ReapResult(moved.get(0), moved.get(1), moved.get(2), moved.get(3), moved.get(4), moved.get(5) == 1);
    }

    @Override
    public long redrive(long limit) {
        // no more than were dead at the start: consumers may dead-letter redriven messages again meanwhile
        long dead = calls.run("redrive", () -> redis.commands().zcard(keys.dead));
        limit = Math.min(limit, dead);
        long moved = 0;
        // the ticks left dead stay the oldest dead letters: each call passes over those the calls before it left
        long left = 0;
        while (moved < limit) {
            long batch = Math.min(BULK_BATCH, limit - moved);
            List<Long> n = calls.run("redrive", REDRIVE, ScriptOutputType.MULTI,
                    redriveKeys(), bytes(batch), bytes(QueueSchedule.tickIdPrefix(name)), bytes(left));
            moved += n.get(0);
            left += n.get(1);
            if (n.get(0) + n.get(1) < batch) {
                break;
            }
        }
        return moved;
    }

    @Override
    public boolean redrive(String messageId) {
        List<Long> moved = calls.run("redrive", REDRIVE, ScriptOutputType.MULTI,
                redriveKeys(), bytes(1), bytes(QueueSchedule.tickIdPrefix(name)), bytes(0), bytes(messageId));
        return moved.get(0) == 1;
    }

    private byte[][] redriveKeys() {
        return keys(keys.dead, keys.ready, keys.messages, keys.leases, keys.failure, keys.wake, keys.extras,
                keys.prioritized, keys.seq, keys.groups, keys.grouped, keys.schedule);
    }

    @Override
    public long purge() {
        long removed = 0;
        while (true) {
            List<Long> result = calls.run("purge", PURGE, ScriptOutputType.MULTI,
                    keys(keys.ready, keys.delayed, keys.dead, keys.messages, keys.leases, keys.failure,
                            keys.extras, keys.prioritized, keys.groups, keys.grouped),
                    bytes(BULK_BATCH));
            removed += result.get(0);
            if (result.get(1) == 0) {
                // nothing gave a full batch: what is left was enqueued after the purge began
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
        Long was = calls.run("resume", RESUME, ScriptOutputType.INTEGER, keys(keys.paused, keys.resumed, keys.wake));
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
                bytes(previousId)));
        List<byte[]> keyList = new ArrayList<>(List.of(keys.schedule, keys.dead));
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
                keys(keys.ready, keys.inflight, keys.delayed, keys.dead, keys.deadInflight, keys.messages,
                        keys.paused, keys.capped, keys.limited, keys.prioritized, keys.groups, keys.grouped),
                bytes(settings.visibilityTimeout().toMillis()));
        return new QueueStats(counts.get(0), counts.get(1), counts.get(2), counts.get(3), -1, counts.get(4),
                counts.get(5), counts.get(6) == 1, counts.get(7) == 1, counts.get(8) == 1, counts.get(9));
    }

    @Override
    public List<BrowsedMessage> browse(QueueSection section, int limit) {
        calls.checkBrowseLimit(limit);
        List<Object> rows = calls.run("browse", BROWSE, ScriptOutputType.MULTI,
                keys(keys.ready, keys.inflight, keys.delayed, keys.dead, keys.deadInflight, keys.messages,
                        keys.leases, keys.failure, keys.prioritized, keys.grouped),
                bytes(section.name().toLowerCase(Locale.ROOT)), bytes(limit),
                bytes(settings.visibilityTimeout().toMillis()));
        long now = (Long) rows.get(0);
        List<BrowsedMessage> messages = new ArrayList<>(rows.size() / FIELDS_PER_BROWSED);
        for (int i = 1; i < rows.size(); i += FIELDS_PER_BROWSED) {
            String id = text(rows.get(i));
            MessageRecord record = MessageRecord.parse((byte[]) rows.get(i + 1));
            boolean malformed = record.malformed() != null;
            messages.add(new BrowsedMessage(id, section, record.body(), null, calls.headers(id, record.headers()),
                    malformed ? -1 : Math.max(0, now - record.enqueuedAt()), ((Long) rows.get(i + 2)).intValue(),
                    (Long) rows.get(i + 3), (Long) rows.get(i + 4),
                    malformed ? record.malformed() : text(rows.get(i + 5)), null));
        }
        return messages;
    }

    private byte[] inflight() {
        return deadLetters ? keys.deadInflight : keys.inflight;
    }

    @Override
    public String toString() {
        return "ListQueue[" + name + (deadLetters ? ", dead letters" : "") + "]";
    }
}
