package dev.reliableredis.camel;

import java.time.Duration;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueMode;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.QueueSettings.ExpiredMessages;
import dev.reliableredis.queue.QueueSettings.GroupOnDeadLetter;
import dev.reliableredis.queue.QueueSettings.PriorityMode;
import dev.reliableredis.queue.RateLimit;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.runtime.ConsumerNames;
import dev.reliableredis.queue.schedule.ScheduleTicks;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.support.jsse.SSLContextParameters;
import org.apache.camel.util.TimeUtils;

/** The options of a reliable-redis endpoint; each endpoint has its own copy. */
@UriParams
public class ReliableRedisConfiguration {

    /** Each consumer thread counts in the queue's claimers, and each claim passes the ids of the idle ones. */
    static final int MAX_CONCURRENT_CONSUMERS = 1000;
    /** A requester waiting longer holds its thread or exchange and its inbox key for nothing (docs/decisions.md). */
    static final long MAX_REQUEST_TIMEOUT = Duration.ofHours(24).toMillis();

    @UriParam(label = "common", defaultValue = "redis://localhost:6379", secret = true)
    private String redisUri = "redis://localhost:6379";
    @UriParam(label = "security", secret = true)
    private String username;
    @UriParam(label = "security", secret = true)
    private String password;
    @UriParam(label = "security")
    private SSLContextParameters sslContextParameters;
    @UriParam(label = "advanced")
    @Metadata(autowired = true)
    private AbstractRedisClient redisClient;
    @UriParam(label = "common", enums = "list,stream", defaultValue = "list")
    private String mode = "list";
    @UriParam(label = "common", defaultValue = "rr")
    private String keyPrefix = "rr";
    @UriParam(label = "common", defaultValue = "10000", javaType = "java.time.Duration")
    private long commandTimeout = 10_000;
    @UriParam(label = "common", defaultValue = "1")
    private int shards = 1;
    @UriParam(label = "common,advanced")
    private String slotGroup;

    @UriParam(label = "consumer", defaultValue = "30000", javaType = "java.time.Duration")
    private long visibilityTimeout = 30_000;
    @UriParam(label = "consumer", defaultValue = "true")
    private boolean extendVisibility = true;
    @UriParam(label = "consumer", defaultValue = "3")
    private int maxRetries = 3;
    @UriParam(label = "consumer", defaultValue = "1000", javaType = "java.time.Duration")
    private long retryDelay = 1_000;
    @UriParam(label = "consumer", defaultValue = "2.0")
    private double retryBackoffMultiplier = 2.0;
    @UriParam(label = "consumer", defaultValue = "60000", javaType = "java.time.Duration")
    private long maxRetryDelay = 60_000;
    @UriParam(label = "consumer", defaultValue = "3600000", javaType = "java.time.Duration")
    private long maxRetryAfter = 3_600_000;
    @UriParam(label = "consumer", defaultValue = "0")
    private int maxInflight;
    @UriParam(label = "consumer")
    private String rateLimit;
    @UriParam(label = "consumer", defaultValue = "1")
    private int rateLimitBurst = 1;
    @UriParam(label = "consumer", defaultValue = "1")
    private int concurrentConsumers = 1;
    @UriParam(label = "consumer", defaultValue = "10")
    private int maxMessagesPerPoll = 10;
    @UriParam(label = "consumer", defaultValue = "1000", javaType = "java.time.Duration")
    private long reaperInterval = 1_000;
    @UriParam(label = "consumer", defaultValue = "1000", javaType = "java.time.Duration")
    private long pollTimeout = 1_000;
    @UriParam(label = "consumer", defaultValue = "100")
    private int reaperBatchSize = 100;
    @UriParam(label = "consumer", defaultValue = "300000", javaType = "java.time.Duration")
    private long idempotencyWindow = 300_000;
    @UriParam(label = "consumer", defaultValue = "false")
    private boolean consumeDeadLetters;
    @UriParam(label = "consumer,health", defaultValue = "0")
    private long deadLetterWarnThreshold;
    @UriParam(label = "advanced", defaultValue = "100")
    private int browseLimit = 100;

    @UriParam(label = "producer,advanced", defaultValue = "false")
    private boolean synchronous;
    @UriParam(label = "producer", defaultValue = "0", javaType = "java.time.Duration")
    private long timeToLive;
    @UriParam(label = "producer", defaultValue = "false")
    private boolean exactlyOnce;
    @UriParam(label = "producer", defaultValue = "false")
    private boolean requestReply;
    @UriParam(label = "producer", defaultValue = "20000", javaType = "java.time.Duration")
    private long requestTimeout = 20_000;
    @UriParam(label = "consumer", enums = "deadLetter,drop", defaultValue = "deadLetter")
    private String expiredMessages = "deadLetter";
    @UriParam(label = "consumer", enums = "weighted,strict", defaultValue = "weighted")
    private String priorityMode = "weighted";
    @UriParam(label = "consumer", enums = "continue,block", defaultValue = "continue")
    private String groupOnDeadLetter = "continue";
    @UriParam(label = "consumer,schedule")
    private String schedule;
    @UriParam(label = "consumer,schedule", defaultValue = "UTC")
    private String scheduleTimeZone = "UTC";
    @UriParam(label = "consumer,schedule", enums = "fireOnce,skip,all", defaultValue = "fireOnce")
    private String missedTicks = "fireOnce";

    @UriParam(label = "replication", defaultValue = "0")
    private int waitReplicas;
    @UriParam(label = "replication", defaultValue = "1000", javaType = "java.time.Duration")
    private long waitTimeout = 1_000;
    @UriParam(label = "replication", defaultValue = "false")
    private boolean waitAof;

    @UriParam(label = "stream", defaultValue = "camel")
    private String group = "camel";
    @UriParam(label = "consumer,stream", enums = "0,$", defaultValue = "0")
    private String groupStartId = "0";
    @UriParam(label = "consumer,stream")
    private String consumerName;
    @UriParam(label = "stream")
    private String streamKey;
    @UriParam(label = "stream")
    private String deadLetterKey;
    @UriParam(label = "stream", defaultValue = "0")
    private long maxLen;
    @UriParam(label = "consumer,stream", defaultValue = "true")
    private boolean deleteAfterAck = true;

    /** Checks every option; throws IllegalArgumentException naming the option and the value. */
    public void validate() {
        if (queueMode() == QueueMode.STREAM) {
            streamOptions();
        }
        validateShards();
        queueKeyPrefix();
        if (commandTimeout <= 0) {
            throw new IllegalArgumentException("commandTimeout must be more than 0 ms, was " + commandTimeout + " ms");
        }
        if (concurrentConsumers < 1 || concurrentConsumers > MAX_CONCURRENT_CONSUMERS) {
            throw new IllegalArgumentException("concurrentConsumers must be between 1 and " + MAX_CONCURRENT_CONSUMERS
                                               + ", was " + concurrentConsumers);
        }
        if (maxMessagesPerPoll < 1 || maxMessagesPerPoll > ReliableQueue.MAX_BATCH) {
            throw new IllegalArgumentException("maxMessagesPerPoll must be between 1 and " + ReliableQueue.MAX_BATCH
                                               + ", was " + maxMessagesPerPoll);
        }
        // the queue's own settings (maxRetries, retryDelay, maxInflight, the policies...) are the engine's to check:
        // queueSettings()
        if (maxInflight > 0 && shards > 1) {
            throw new IllegalArgumentException("maxInflight=" + maxInflight + " cannot be combined with shards="
                    + shards + ": the cap is counted on one queue's in-flight set; use shards=1, or maxInflight=0");
        }
        if (rateLimit().isOn() && shards > 1) {
            throw new IllegalArgumentException("rateLimit=" + rateLimit + " cannot be combined with shards=" + shards
                    + ": the limit is kept on one queue; use shards=1, or no rateLimit");
        }
        if (requestTimeout <= 0 || requestTimeout > MAX_REQUEST_TIMEOUT) {
            throw new IllegalArgumentException("requestTimeout must be more than 0 ms and at most "
                    + MAX_REQUEST_TIMEOUT + " ms (24 hours), was " + requestTimeout + " ms");
        }
        if (timeToLive < 0 || timeToLive > NewMessage.MAX_TIME_TO_LIVE_MS) {
            throw new IllegalArgumentException("timeToLive must be 0 ms (none) to " + NewMessage.MAX_TIME_TO_LIVE_MS
                                               + " ms (14 days), was " + timeToLive + " ms");
        }
        if (schedule != null) {
            if (shards > 1) {
                throw new IllegalArgumentException("schedule is set on a queue with shards=" + shards + ": a schedule is "
                        + "kept on one queue; use shards=1, or no schedule");
            }
            ScheduleTicks.parse(schedule(), scheduleTimeZone);
            ScheduleTicks.Missed.of(missedTicks);
        }
        if (maxRetryAfter <= 0) {
            throw new IllegalArgumentException("maxRetryAfter must be more than 0 ms, was " + maxRetryAfter + " ms");
        }
        if (reaperInterval <= 0) {
            throw new IllegalArgumentException("reaperInterval must be more than 0 ms, was " + reaperInterval + " ms");
        }
        if (pollTimeout <= 0) {
            throw new IllegalArgumentException("pollTimeout must be more than 0 ms, was " + pollTimeout + " ms");
        }
        if (deadLetterWarnThreshold < 0) {
            throw new IllegalArgumentException("deadLetterWarnThreshold must be 0 (off) or more, was "
                                               + deadLetterWarnThreshold);
        }
        if (browseLimit < 1 || browseLimit > ReliableQueue.MAX_BROWSE) {
            throw new IllegalArgumentException("browseLimit must be between 1 and " + ReliableQueue.MAX_BROWSE
                                               + ", was " + browseLimit);
        }
        boolean cluster = redisClient == null ? RedisUris.parse(redisUri, username, password).size() > 1
                : redisClient instanceof RedisClusterClient;
        validateReplicaWait(cluster);
        queueSettings();
    }

    private void validateShards() {
        if (shards < 1 || shards > ShardedQueue.MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be between 1 and " + ShardedQueue.MAX_SHARDS + ", was "
                                               + shards);
        }
        if (shards > 1 && slotGroup != null && !slotGroup.isEmpty()) {
            throw new IllegalArgumentException("shards=" + shards + " cannot be combined with slotGroup=" + slotGroup
                    + ": a slot group keeps its queues in one Redis Cluster slot, and shards spread a queue over many; "
                    + "use shards=1, or no slotGroup");
        }
        if (shards > 1 && isStreamMode() && (streamKey != null || deadLetterKey != null)) {
            // every shard needs a stream and a dead-letter stream of its own, and these options name one of each
            throw new IllegalArgumentException("shards=" + shards + " cannot be combined with streamKey or "
                    + "deadLetterKey (streamKey=" + streamKey + ", deadLetterKey=" + deadLetterKey + "): each shard "
                    + "has its own streams; use shards=1 to attach to existing streams");
        }
    }

    private void validateReplicaWait(boolean cluster) {
        if (waitReplicas < 0) {
            throw new IllegalArgumentException("waitReplicas must be 0 (off) or more, was " + waitReplicas);
        }
        if (waitTimeout <= 0) {
            // WAIT with timeout 0 waits for ever
            throw new IllegalArgumentException("waitTimeout must be more than 0 ms, was " + waitTimeout + " ms");
        }
        if ((waitReplicas > 0 || waitAof) && waitTimeout >= commandTimeout) {
            throw new IllegalArgumentException("waitTimeout (" + waitTimeout + " ms) must be less than commandTimeout ("
                    + commandTimeout + " ms): the client would give up on WAIT before Redis answers it");
        }
        if ((waitReplicas > 0 || waitAof) && cluster) {
            // a cluster connection sends a keyless WAIT to any node, not necessarily the one that took the writes
            throw new IllegalArgumentException((waitAof ? "waitAof" : "waitReplicas") + " is not supported on a Redis "
                    + "Cluster (a node list in redisUri, or a RedisClusterClient): use a standalone or Sentinel Redis, "
                    + "or " + (waitAof ? "waitAof=false" : "waitReplicas=0"));
        }
    }

    /**
     * The key prefix the queue engine takes, checked: keyPrefix, followed by the slot group's hash tag when slotGroup
     * is set.
     */
    public String queueKeyPrefix() {
        return QueueNames.inSlotGroup(QueueNames.validatePrefix(keyPrefix), slotGroup);
    }

    /** The settings the queue engine needs, checked. */
    public QueueSettings queueSettings() {
        return QueueSettings.builder().visibilityTimeout(Duration.ofMillis(visibilityTimeout)).maxRetries(maxRetries)
                .retryDelay(Duration.ofMillis(retryDelay)).retryBackoffMultiplier(retryBackoffMultiplier)
                .maxRetryDelay(Duration.ofMillis(maxRetryDelay)).reaperBatchSize(reaperBatchSize)
                .idempotencyWindow(Duration.ofMillis(idempotencyWindow)).maxInflight(maxInflight).rateLimit(rateLimit())
                .expiredMessages(ExpiredMessages.of(expiredMessages)).priorityMode(PriorityMode.of(priorityMode))
                .groupOnDeadLetter(GroupOnDeadLetter.of(groupOnDeadLetter)).build();
    }

    /**
     * The rate limit option, checked: {@code <messages>/<period>}, the period in ms or a duration such as 1s or 1m.
     */
    private RateLimit rateLimit() {
        if (rateLimit == null || rateLimit.isBlank()) {
            return new RateLimit(0, Duration.ofSeconds(1), rateLimitBurst);
        }
        int slash = rateLimit.indexOf('/');
        int permits = 0;
        long period = 0;
        try {
            if (slash > 0) {
                permits = Integer.parseInt(rateLimit.substring(0, slash).trim());
                period = TimeUtils.toMilliSeconds(rateLimit.substring(slash + 1).trim());
            }
        } catch (RuntimeException unreadable) {
            // reported below with the expected form (Camel's TimeUtils throws more than IllegalArgumentException)
        }
        if (permits < 1 || period < 1) {
            throw new IllegalArgumentException("rateLimit must be <messages>/<period> with at least 1 message and a "
                    + "period of 1 ms or more, such as 100/1s or 5/500ms, was '" + rateLimit + "'");
        }
        return new RateLimit(permits, Duration.ofMillis(period), rateLimitBurst);
    }

    /** The stream-mode options, checked; a consumer name is made up when none is set. */
    public StreamOptions streamOptions() {
        if (consumerName == null) {
            consumerName = ConsumerNames.generate();
        }
        return new StreamOptions(streamKey, deadLetterKey, group, groupStartId, consumerName, maxLen, deleteAfterAck);
    }

    /** The mode option, checked (IllegalArgumentException naming it and its value). */
    public QueueMode queueMode() {
        return QueueMode.of(mode);
    }

    public boolean isStreamMode() {
        return queueMode() == QueueMode.STREAM;
    }

    public String getRedisUri() {
        return redisUri;
    }

    /**
     * The Redis server as a Lettuce URI: redis://, rediss:// (TLS), redis-sentinel://, or a Redis Cluster as a
     * list of its nodes, redis://host1:port1,host2:port2; with user:password@ if needed. Never logged in clear.
     */
    public void setRedisUri(String redisUri) {
        this.redisUri = redisUri;
    }

    public String getUsername() {
        return username;
    }

    /** The Redis user (ACL), as an alternative to putting it in redisUri. */
    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    /** The Redis password, as an alternative to putting it in redisUri. */
    public void setPassword(String password) {
        this.password = password;
    }

    public SSLContextParameters getSslContextParameters() {
        return sslContextParameters;
    }

    /**
     * TLS settings for a rediss:// redisUri: the CAs the server's certificate must chain to (trust managers) and a
     * client certificate for a server that asks for one (key managers). Without them, the server's certificate is
     * checked against the JVM's default truststore. Not used with redisClient.
     */
    public void setSslContextParameters(SSLContextParameters sslContextParameters) {
        this.sslContextParameters = sslContextParameters;
    }

    public AbstractRedisClient getRedisClient() {
        return redisClient;
    }

    /**
     * An existing Lettuce RedisClient or RedisClusterClient to use instead of redisUri; the application owns it
     * and closes it.
     */
    public void setRedisClient(AbstractRedisClient redisClient) {
        this.redisClient = redisClient;
    }

    public String getMode() {
        return mode;
    }

    /**
     * list: a ready List, an in-flight sorted set and Lua scripts. stream: a Redis Stream read by a consumer
     * group.
     */
    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    /** The first part of every Redis key of the queue: keyPrefix:{queueName}:part. */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public long getCommandTimeout() {
        return commandTimeout;
    }

    /**
     * A Redis call that gets no answer in this time fails (a producer send fails the exchange): ms, or a duration
     * such as 10s.
     */
    public void setCommandTimeout(long commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    public int getShards() {
        return shards;
    }

    /**
     * Spread the queue over this many shards, 1 to 1024: shard 0 has the queue's keys, shard i the keys of
     * queueName#i, each in a Redis Cluster slot of its own, so that several masters serve one queue. A message goes to
     * the shard its CamelReliableRedisShardKey header picks, else its id picks; consumers claim from every shard.
     * Producers and consumers of a queue must use the same number: changing it moves ids to other shards, so a
     * deduplication id sent before and after the change may be stored twice, and messages in shards beyond a lowered
     * number are not consumed until an endpoint with the old number drains them.
     */
    public void setShards(int shards) {
        this.shards = shards;
    }

    public String getSlotGroup() {
        return slotGroup;
    }

    /**
     * Puts the queue's keys in the Redis Cluster slot of this group instead of its own:
     * keyPrefix:{slotGroup}:{queueName}:part. Queues of one slot group can be handed off to one another with
     * exactlyOnce=true on a Redis Cluster; every endpoint of a queue must name the same group, as it names the same
     * keyPrefix. Not with shards.
     */
    public void setSlotGroup(String slotGroup) {
        this.slotGroup = slotGroup;
    }

    public long getVisibilityTimeout() {
        return visibilityTimeout;
    }

    /**
     * The lease of a claimed message (ms, or a duration such as 30s or 1m30s): if its consumer neither settles nor
     * extends it in this time, the message is delivered again.
     */
    public void setVisibilityTimeout(long visibilityTimeout) {
        this.visibilityTimeout = visibilityTimeout;
    }

    public boolean isExtendVisibility() {
        return extendVisibility;
    }

    /** Keep extending the lease while the exchange is in flight. */
    public void setExtendVisibility(boolean extendVisibility) {
        this.extendVisibility = extendVisibility;
    }

    public int getMaxRetries() {
        return maxRetries;
    }

    /**
     * Failed deliveries retried before the message is dead-lettered: a delivery fails when its exchange fails, or when
     * its consumer dies while holding the message alone. A message is delivered at most one time more than
     * maxRetries, plus once for each batch it was in whose consumer died.
     */
    public void setMaxRetries(int maxRetries) {
        this.maxRetries = maxRetries;
    }

    public long getRetryDelay() {
        return retryDelay;
    }

    /** The delay before the first retry after a failure: ms, or a duration such as 1s. */
    public void setRetryDelay(long retryDelay) {
        this.retryDelay = retryDelay;
    }

    public double getRetryBackoffMultiplier() {
        return retryBackoffMultiplier;
    }

    /** Each further retry waits this many times longer than the one before. */
    public void setRetryBackoffMultiplier(double retryBackoffMultiplier) {
        this.retryBackoffMultiplier = retryBackoffMultiplier;
    }

    public long getMaxRetryDelay() {
        return maxRetryDelay;
    }

    /** The cap on the retry delay: ms, or a duration such as 1m. */
    public void setMaxRetryDelay(long maxRetryDelay) {
        this.maxRetryDelay = maxRetryDelay;
    }

    public int getMaxInflight() {
        return maxInflight;
    }

    /**
     * The most messages of the queue claimed and not settled at once, across all its consumers in every JVM
     * (batch-mates waiting their turn and expired leases not yet returned included); 0: no cap. Give every consumer
     * of the queue the same value; in stream mode it caps the consumer group.
     */
    public void setMaxInflight(int maxInflight) {
        this.maxInflight = maxInflight;
    }

    public long getTimeToLive() {
        return timeToLive;
    }

    /**
     * A message sent by this endpoint and not claimed within this long of the send (Redis time) is never
     * delivered: it is dead-lettered, or dropped (expiredMessages); ms, or a duration such as 10m; 0: it lives until
     * consumed. The header CamelReliableRedisTimeToLive overrides it.
     */
    public void setTimeToLive(long timeToLive) {
        this.timeToLive = timeToLive;
    }

    public String getSchedule() {
        return schedule;
    }

    /**
     * Fires the queue on a schedule: a Quartz cron expression with seconds, as camel-quartz takes it (0 0 2 * * ?
     * for 2 am every day; + for a space in a URI). Every tick enqueues one message, with an empty body and the header
     * CamelReliableRedisScheduledFor, under the id <queue>@<tick epoch ms>, fired once per tick however many instances
     * declare the schedule. The schedule is kept in Redis; an instance that starts with another expression replaces
     * it. Ticks of one schedule never run at the same time: the next fires once the last one's message is settled.
     */
    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    /** The schedule with a URI's + as spaces, or null. */
    String schedule() {
        return schedule == null ? null : schedule.replace('+', ' ').trim();
    }

    public String getScheduleTimeZone() {
        return scheduleTimeZone;
    }

    /** The time zone of the schedule's cron expression: a time zone id such as UTC or Europe/Paris. */
    public void setScheduleTimeZone(String scheduleTimeZone) {
        this.scheduleTimeZone = scheduleTimeZone;
    }

    public String getMissedTicks() {
        return missedTicks;
    }

    /**
     * What fires for ticks more than 60 s late (Redis time: the consumers were down, or the last tick ran long):
     * fireOnce (the latest of them, once), skip (none), or all (each, the latest 100 of the last day).
     */
    public void setMissedTicks(String missedTicks) {
        this.missedTicks = missedTicks;
    }

    public boolean isExactlyOnce() {
        return exactlyOnce;
    }

    /**
     * Hands a consumed message on exactly once: a send of an exchange that came from a reliable-redis consumer is
     * held, and enqueued by the script call that acks the consumed message, fenced by its lease token, or dropped
     * when the message is retried or dead-lettered. The sent message's id is derived from the consumed one's
     * (<id>/<queue>/<n>). An unsharded queue of the consumed queue's mode on the same Redis (and, on a Cluster, in the
     * same hash slot: give both queues one slotGroup) is handed off to so; any other queue gets the send at once,
     * under the derived id, so that it is enqueued once within the idempotency window, unless this endpoint names a
     * slotGroup that the consuming endpoint does not: the exchange fails then. A send of any other exchange is not
     * affected.
     */
    public void setExactlyOnce(boolean exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
    }

    public boolean isRequestReply() {
        return requestReply;
    }

    /**
     * Sends each exchange as a request and waits for its reply: the consumer route's final body and travelling
     * headers when it acks the request, an error (the exchange fails with a RequestFailedException) when it
     * dead-letters it. The reply comes back on an inbox of this producer's; no reply within requestTimeout fails the
     * exchange with an ExchangeTimedOutException. Without it, an InOut exchange only enqueues, as any other does.
     */
    public void setRequestReply(boolean requestReply) {
        this.requestReply = requestReply;
    }

    public long getRequestTimeout() {
        return requestTimeout;
    }

    /**
     * With requestReply, how long a request waits for its reply. The request expires then too (its time to live is
     * at most this), so that it is not run after its requester gave up.
     */
    public void setRequestTimeout(long requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public String getPriorityMode() {
        return priorityMode;
    }

    /**
     * List mode: how claims serve the priority levels (CamelReliableRedisPriority): weighted, by weighted round-robin,
     * level p with weight p + 1, so that no level starves; or strict, the highest level first.
     */
    public void setPriorityMode(String priorityMode) {
        this.priorityMode = priorityMode;
    }

    public String getGroupOnDeadLetter() {
        return groupOnDeadLetter;
    }

    /**
     * List mode: what a dead-lettered message of a group (CamelReliableRedisGroupId) does to its group: continue, the
     * next of the group is delivered; or block, the group waits until the dead letter is redriven (it is then
     * delivered first), consumed by a dead-letter consumer or purged.
     */
    public void setGroupOnDeadLetter(String groupOnDeadLetter) {
        this.groupOnDeadLetter = groupOnDeadLetter;
    }

    public String getExpiredMessages() {
        return expiredMessages;
    }

    /**
     * What a claim does with a message whose time to live has passed: deadLetter (with a failure starting with
     * 'expired') or drop. Never is it delivered to the route.
     */
    public void setExpiredMessages(String expiredMessages) {
        this.expiredMessages = expiredMessages;
    }

    public String getRateLimit() {
        return rateLimit;
    }

    /**
     * The most messages claimed per period across all consumers of the queue in every JVM, as
     * {@code <messages>/<period>} (such as 100/1s or 5/500ms), spread evenly over the period (a generic cell rate
     * algorithm on the Redis clock, not a fixed window). A consumer at the limit waits as long as Redis says and
     * uses no delivery attempt. Give every consumer of the queue the same value; in stream mode it applies to the
     * consumer group.
     */
    public void setRateLimit(String rateLimit) {
        this.rateLimit = rateLimit;
    }

    public int getRateLimitBurst() {
        return rateLimitBurst;
    }

    /** With rateLimit: the most messages claimed at once, after the queue was idle. */
    public void setRateLimitBurst(int rateLimitBurst) {
        this.rateLimitBurst = rateLimitBurst;
    }

    public long getMaxRetryAfter() {
        return maxRetryAfter;
    }

    /**
     * The longest delay a route may ask for with the header CamelReliableRedisRetryAfter: ms, or a duration such as
     * 1h; a longer one is cut to it.
     */
    public void setMaxRetryAfter(long maxRetryAfter) {
        this.maxRetryAfter = maxRetryAfter;
    }

    public int getConcurrentConsumers() {
        return concurrentConsumers;
    }

    /**
     * Consumer threads: each runs batches of its own, their exchanges one after the other; the idle threads claim
     * together, one script call for all of them.
     */
    public void setConcurrentConsumers(int concurrentConsumers) {
        this.concurrentConsumers = concurrentConsumers;
    }

    public int getMaxMessagesPerPoll() {
        return maxMessagesPerPoll;
    }

    /**
     * The most messages of one consumer thread's batch, which a claim takes for each idle thread, and no more than
     * its fair share of what is ready; 1: one message per batch.
     */
    public void setMaxMessagesPerPoll(int maxMessagesPerPoll) {
        this.maxMessagesPerPoll = maxMessagesPerPoll;
    }

    public long getReaperInterval() {
        return reaperInterval;
    }

    /**
     * How often expired leases are returned, due delayed messages and retries released and old acked ids forgotten
     * (ms, or a duration such as 1s).
     */
    public void setReaperInterval(long reaperInterval) {
        this.reaperInterval = reaperInterval;
    }

    public long getPollTimeout() {
        return pollTimeout;
    }

    /**
     * The longest an idle consumer waits for a wake-up before it looks at the queue again on its own (ms, or a
     * duration such as 5s). New messages wake a waiting consumer at once; this bounds the wait when a wake-up is
     * missed, and how long a stopping consumer's last wait may take where Redis cannot cut it short.
     */
    public void setPollTimeout(long pollTimeout) {
        this.pollTimeout = pollTimeout;
    }

    public int getReaperBatchSize() {
        return reaperBatchSize;
    }

    /** The most messages one reaper call moves, which bounds how long Redis is busy with it. */
    public void setReaperBatchSize(int reaperBatchSize) {
        this.reaperBatchSize = reaperBatchSize;
    }

    public long getIdempotencyWindow() {
        return idempotencyWindow;
    }

    /**
     * How long (ms, or a duration such as 5m) an acked message id is remembered so that enqueueing it again with
     * the same CamelReliableRedisDeduplicationId is a no-op; 0: forgotten at once. Each remembered id costs about
     * 144 bytes of Redis memory (a 36-character id), and rate x window ids are remembered.
     */
    public void setIdempotencyWindow(long idempotencyWindow) {
        this.idempotencyWindow = idempotencyWindow;
    }

    public boolean isConsumeDeadLetters() {
        return consumeDeadLetters;
    }

    /**
     * Consume the queue's dead letters instead of its ready messages. A completed exchange removes the dead
     * letter; a failed one returns it to the dead letters, not offered again before retryDelay.
     */
    public void setConsumeDeadLetters(boolean consumeDeadLetters) {
        this.consumeDeadLetters = consumeDeadLetters;
    }

    public String getGroup() {
        return group;
    }

    /** Stream mode: the consumer group, created if missing. */
    public void setGroup(String group) {
        this.group = group;
    }

    public String getGroupStartId() {
        return groupStartId;
    }

    /**
     * Stream mode: where a group the component creates starts: 0 (every entry in the stream) or $ (only entries
     * added from then on).
     */
    public void setGroupStartId(String groupStartId) {
        this.groupStartId = groupStartId;
    }

    public String getConsumerName() {
        return consumerName;
    }

    /** Stream mode: this consumer's name inside the group; by default host-pid-random. */
    public void setConsumerName(String consumerName) {
        this.consumerName = consumerName;
    }

    public String getStreamKey() {
        return streamKey;
    }

    /**
     * Stream mode: an existing stream to use, such as order_stream, instead of keyPrefix:{queueName}:stream. In
     * Redis Cluster it must share the hash slot of {queueName}.
     */
    public void setStreamKey(String streamKey) {
        this.streamKey = streamKey;
    }

    public String getDeadLetterKey() {
        return deadLetterKey;
    }

    /**
     * Stream mode: an existing stream for the dead letters, such as order_dlq, instead of keyPrefix:{queueName}:dead.
     */
    public void setDeadLetterKey(String deadLetterKey) {
        this.deadLetterKey = deadLetterKey;
    }

    public long getMaxLen() {
        return maxLen;
    }

    /**
     * Stream mode: approximate MAXLEN trim on every XADD; 0 is off. It can trim entries never delivered (they are
     * gone): a memory cap to set well above any backlog.
     */
    public void setMaxLen(long maxLen) {
        this.maxLen = maxLen;
    }

    public boolean isDeleteAfterAck() {
        return deleteAfterAck;
    }

    /**
     * Stream mode: delete an entry once every consumer group of the stream has read and acked it, so the stream
     * does not grow without bound; false keeps acked entries (bound the stream with maxLen then).
     */
    public void setDeleteAfterAck(boolean deleteAfterAck) {
        this.deleteAfterAck = deleteAfterAck;
    }

    public long getDeadLetterWarnThreshold() {
        return deadLetterWarnThreshold;
    }

    /**
     * When more than this many dead letters wait, the consumer's health check says so in its details and message,
     * and stays UP: dead letters need a person, not a restart. 0 turns the check off.
     */
    public void setDeadLetterWarnThreshold(long deadLetterWarnThreshold) {
        this.deadLetterWarnThreshold = deadLetterWarnThreshold;
    }

    public int getWaitReplicas() {
        return waitReplicas;
    }

    /**
     * After every enqueue and every ack, wait until this many replicas have the write (Redis WAIT); 0 (the default)
     * does not wait: replication stays asynchronous. A send that fewer replicas confirmed within waitTimeout fails its
     * exchange, although the message is stored on the master (repeating a send with the same
     * CamelReliableRedisDeduplicationId is safe); an ack that fewer replicas confirmed stays done, and is logged and
     * counted.
     */
    public void setWaitReplicas(int waitReplicas) {
        this.waitReplicas = waitReplicas;
    }

    public long getWaitTimeout() {
        return waitTimeout;
    }

    /**
     * How long an enqueue or ack waits for waitReplicas replicas (ms, or a duration such as 500ms); must be less than
     * commandTimeout. While replicas lag, every call on the endpoint's connection waits up to this long.
     */
    public void setWaitTimeout(long waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    public boolean isWaitAof() {
        return waitAof;
    }

    /**
     * Wait with WAITAOF instead of WAIT (Redis 7.2 or newer, appendonly yes): every enqueue and ack waits until the
     * master's append-only file, and the files of waitReplicas replicas, have the write on disk. With waitReplicas=0,
     * the master's file alone: a send completes once it is on disk, even with appendfsync everysec. A send not on disk
     * within waitTimeout fails its exchange (the message is stored all the same, and repeating the send with the same
     * CamelReliableRedisDeduplicationId is safe); such an ack stays done, and is logged and counted.
     */
    public void setWaitAof(boolean waitAof) {
        this.waitAof = waitAof;
    }

    public boolean isSynchronous() {
        return synchronous;
    }

    /**
     * A send waits for Redis on the calling thread, and the exchange goes on there: Redis's reply wakes the caller
     * directly, with no hand-off to the producer's pool. For callers that wait anyway (a ProducerTemplate, a
     * synchronous route); an asynchronous route gives up its thread for the round trip instead (the default). Either
     * way the route never runs on a Redis I/O thread.
     */
    public void setSynchronous(boolean synchronous) {
        this.synchronous = synchronous;
    }

    public int getBrowseLimit() {
        return browseLimit;
    }

    /**
     * The most messages that browsing the endpoint (camel browse, hawtio, the browse component) shows, oldest first,
     * without claiming them: ready messages, or dead letters with consumeDeadLetters=true. At most 1000.
     */
    public void setBrowseLimit(int browseLimit) {
        this.browseLimit = browseLimit;
    }
}
