package dev.reliableredis.camel;

import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyInbox;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.redis.ReplicaWait;
import dev.reliableredis.queue.runtime.QueueActivity;
import dev.reliableredis.queue.runtime.QueueActivity.Count;
import dev.reliableredis.queue.runtime.StatsCache;
import dev.reliableredis.queue.sharded.ShardCount;
import dev.reliableredis.queue.stream.StreamOptions;
import io.lettuce.core.SslOptions;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.NoTypeConversionAvailableException;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.TypeConversionException;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.spi.BrowsableEndpoint;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.DefaultEndpoint;
import org.apache.camel.util.URISupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Send and receive messages through a reliable queue on Redis: leases, acks, retries with backoff, dead letters
 * and crash recovery.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "reliable-redis", title = "Reliable Redis",
             syntax = "reliable-redis:queueName", category = { Category.MESSAGING },
             headersClass = ReliableRedisConstants.class)
@ManagedResource(description = "A reliable-redis endpoint: its queue's depths and ages, what it did, and admin "
                               + "operations")
public class ReliableRedisEndpoint extends DefaultEndpoint implements HeaderFilterStrategyAware, BrowsableEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisEndpoint.class);
    private static final ReliableRedisEndpointUriFactory URI_FACTORY = new ReliableRedisEndpointUriFactory();

    @UriPath(description = "The queue name: letters, digits and . _ : - (at most 200 characters).")
    @Metadata(required = true)
    private final String queueName;
    @UriParam
    private final ReliableRedisConfiguration configuration;
    @UriParam(label = "advanced",
              description = "Decides which headers travel with the message. By default every header except "
                            + "Camel's own.")
    private HeaderFilterStrategy headerFilterStrategy = new ReliableRedisHeaderFilterStrategy();

    private RedisGateway gateway;
    private ShardCount shardCount;
    private ReliableQueue queue;
    private ReplicaWait replicaWait;
    /** Consumers of this endpoint that are started: the queue's stats are read through such an endpoint. */
    private final AtomicInteger consumers = new AtomicInteger();
    private QueueMonitor monitor;
    private Enqueuer enqueuer;

    public ReliableRedisEndpoint(String uri, ReliableRedisComponent component, String queueName,
            ReliableRedisConfiguration configuration) {
        super(uri, component);
        this.queueName = queueName;
        this.configuration = configuration;
    }

    @Override
    public Producer createProducer() {
        return new ReliableRedisProducer(this);
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        ReliableRedisConsumer consumer = new ReliableRedisConsumer(this, processor);
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        Duration timeout = Duration.ofMillis(configuration.getCommandTimeout());
        if (configuration.getRedisClient() != null) {
            gateway = RedisGateway.using(configuration.getRedisClient(), timeout);
        } else {
            SslOptions tls = configuration.getSslContextParameters() == null ? null
                    : RedisTls.sslOptions(configuration.getSslContextParameters(), getCamelContext());
            gateway = RedisUris.gateway(getComponent().clientResources(), configuration.getRedisUri(),
                    configuration.getUsername(), configuration.getPassword(), tls, timeout);
        }
        String keyPrefix = configuration.queueKeyPrefix();
        StreamOptions stream = configuration.isStreamMode() ? configuration.streamOptions() : null;
        queue = Queues.open(gateway, keyPrefix, queueName, configuration.getShards(), stream,
                configuration.queueSettings());
        shardCount = Queues.shardCount(gateway, keyPrefix, queueName, configuration.getShards(), stream);
        Duration waitTimeout = Duration.ofMillis(configuration.getWaitTimeout());
        replicaWait = configuration.isWaitAof()
                ? ReplicaWait.appendOnlyFiles(gateway, configuration.getWaitReplicas(), waitTimeout)
                : ReplicaWait.replicas(gateway, configuration.getWaitReplicas(), waitTimeout);
        monitor = getComponent().attach(this);
    }

    /**
     * Refuses this endpoint (IllegalStateException) when Redis records another shard count or layout version for the
     * queue, or holds its messages with no version; checks once, before the endpoint's first send or claim (see
     * {@link ShardCount}).
     */
    void checkShardCount() {
        shardCount.check();
    }

    ShardCount shardCount() {
        return shardCount;
    }

    @Override
    protected void doStop() throws Exception {
        synchronized (this) {
            if (enqueuer != null) {
                // a call under way ends within the command timeout; the calls waiting for it within one more
                enqueuer.stop(System.nanoTime() + 2 * gateway.commandTimeout().toNanos());
                enqueuer = null;
            }
        }
        if (monitor != null) {
            getComponent().detach(this, monitor);
            monitor = null;
        }
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
        super.doStop();
    }

    @Override
    public ReliableRedisComponent getComponent() {
        return (ReliableRedisComponent) super.getComponent();
    }

    /** A new inbox for the replies to one producer's requests; the producer closes it. */
    ReplyInbox replyInbox() {
        return new ReplyInbox(gateway, configuration.queueKeyPrefix(), queueName);
    }

    /** The sends of this endpoint's producers, started with the first producer. */
    synchronized Enqueuer enqueuer() {
        if (enqueuer == null) {
            enqueuer = new Enqueuer(queue, replicaWait, getCamelContext().getExecutorServiceManager(), this,
                    monitor.activity());
        }
        return enqueuer;
    }

    /** The queue the producer writes to (and the consumer reads, unless it consumes dead letters). */
    ReliableQueue queue() {
        return queue;
    }

    /** What enqueues and acks wait for: waitReplicas replicas, or nothing. */
    ReplicaWait replicaWait() {
        return replicaWait;
    }

    /** What the consumers and producers of this endpoint's queue did, in this CamelContext. */
    QueueActivity activity() {
        return monitor.activity();
    }

    /** What identifies this endpoint's queue among the component's endpoints: its Redis, its keys, its group. */
    String queueKey() {
        String redis = configuration.getRedisClient() != null
                ? "client@" + System.identityHashCode(configuration.getRedisClient())
                : configuration.getRedisUri() + "|" + configuration.getUsername();
        String key = redis + "|" + configuration.queueKeyPrefix() + "|" + queueName + "|" + configuration.getMode()
                     + "|" + configuration.getShards();
        return configuration.isStreamMode()
                ? key + "|" + configuration.getStreamKey() + "|" + configuration.getGroup()
                : key;
    }

    /** The queue's stats, at most a second old. */
    StatsCache statsCache() {
        return monitor.stats();
    }

    void consumerStarted() {
        consumers.incrementAndGet();
    }

    void consumerStopped() {
        consumers.decrementAndGet();
    }

    boolean hasConsumers() {
        return consumers.get() > 0;
    }

    /** Asks Redis for a PONG, within commandTimeout; throws when it does not answer. */
    void ping() {
        gateway.commands().ping();
    }

    @ManagedAttribute(description = "The queue name")
    public String getQueueName() {
        return queueName;
    }

    @ManagedAttribute(description = "list or stream")
    public String getMode() {
        return configuration.getMode();
    }

    @ManagedAttribute(description = "The prefix of the queue's Redis keys")
    public String getKeyPrefix() {
        return configuration.getKeyPrefix();
    }

    @ManagedAttribute(description = "The slot group whose Redis Cluster slot the queue's keys share, if any")
    public String getSlotGroup() {
        return configuration.getSlotGroup();
    }

    @ManagedAttribute(description = "Messages ready to be claimed (-1 when Redis cannot be read)")
    public long getReady() {
        return stat(QueueStats::ready);
    }

    @ManagedAttribute(description = "Messages claimed and not settled yet, by every consumer of the queue (-1 when "
                                    + "Redis cannot be read)")
    public long getInflight() {
        return stat(QueueStats::inflight);
    }

    @ManagedAttribute(description = "Messages waiting for their delay or retry backoff (-1 when Redis cannot be read)")
    public long getDelayed() {
        return stat(QueueStats::delayed);
    }

    @ManagedAttribute(description = "Dead letters (-1 when Redis cannot be read)")
    public long getDead() {
        return stat(QueueStats::dead);
    }

    @ManagedAttribute(description = "ms since the message at the head of the ready line was enqueued (-1 when Redis "
                                    + "cannot be read)")
    public long getOldestReadyAge() {
        return stat(QueueStats::oldestReadyAge);
    }

    @ManagedAttribute(description = "ms since the longest-held lease was taken or last extended (-1 when Redis "
                                    + "cannot be read)")
    public long getOldestInflightAge() {
        return stat(QueueStats::oldestInflightAge);
    }

    @ManagedAttribute(description = "1 while the queue is paused for every consumer, else 0 (-1 when Redis cannot be "
                                    + "read)")
    public long getPaused() {
        return stat(stats -> stats.paused() ? 1 : 0);
    }

    @ManagedAttribute(description = "1 while consumers wait at the queue's maxInflight (a claim found it at the cap and "
                                    + "no settlement came since), else 0 (-1 when Redis cannot be read)")
    public long getCapped() {
        return stat(stats -> stats.capped() ? 1 : 0);
    }

    @ManagedAttribute(description = "1 while the queue's rateLimit holds claims back, else 0 (-1 when Redis cannot be "
                                    + "read)")
    public long getRateLimited() {
        return stat(stats -> stats.limited() ? 1 : 0);
    }

    @ManagedAttribute(description = "List mode: message groups holding messages not yet settled (-1 when Redis cannot "
                                    + "be read)")
    public long getGroups() {
        return stat(QueueStats::groups);
    }

    private long stat(ToLongFunction<QueueStats> value) {
        QueueStats now = statsCache().getOrNull();
        return now == null ? -1 : value.applyAsLong(now);
    }

    @ManagedAttribute(description = "Messages the producers of this queue in this CamelContext stored")
    public long getEnqueuedCount() {
        return activity().get(Count.ENQUEUED);
    }

    @ManagedAttribute(description = "Enqueue calls to Redis of the producers of this queue in this CamelContext (each "
                                    + "carries the sends that were waiting)")
    public long getEnqueueCallCount() {
        return activity().get(Count.ENQUEUE_CALLS);
    }

    @ManagedAttribute(description = "Sends to this queue in this CamelContext that were no-ops because the message id "
                                    + "was known (idempotency)")
    public long getDuplicateCount() {
        return activity().get(Count.DUPLICATES);
    }

    @ManagedOperation(description = "The queue's counts, read from Redis now")
    public Map<String, Long> stats() {
        return queue.statsWithSchedule();
    }

    @ManagedOperation(description = "Moves up to limit dead letters back to ready; returns how many moved")
    public long redrive(long limit) {
        return queue.redrive(limit);
    }

    @ManagedOperation(description = "Removes every ready, delayed and dead message; returns how many were removed. "
                                    + "Messages in flight finish normally")
    public long purge() {
        return queue.purge();
    }

    @ManagedOperation(description = "Pauses the queue for every consumer in every JVM: nothing is claimed until "
                                    + "resumeQueue, or for durationMillis ms when more than 0")
    public void pauseQueue(long durationMillis) {
        queue.pause(Duration.ofMillis(durationMillis));
    }

    @ManagedOperation(description = "Ends the queue's pause and wakes its consumers at once; returns whether it was "
                                    + "paused")
    public boolean resumeQueue() {
        return queue.resume();
    }

    public ReliableRedisConfiguration getConfiguration() {
        return configuration;
    }

    @Override
    public int getBrowseLimit() {
        return configuration.getBrowseLimit();
    }

    @Override
    public void setBrowseLimit(int browseLimit) {
        configuration.setBrowseLimit(browseLimit);
    }

    @Override
    public List<Exchange> getExchanges() {
        return getExchanges(getBrowseLimit(), null);
    }

    /**
     * The first browseLimit ready messages, oldest first, or dead letters with consumeDeadLetters=true, read in one
     * script call without claiming them, as a consumer would get them; of those, the ones the filter accepts, up to
     * the limit.
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public List<Exchange> getExchanges(int limit, Predicate filter) {
        int most = limit > 0 ? limit : Integer.MAX_VALUE;
        QueueSection section = configuration.isConsumeDeadLetters() ? QueueSection.DEAD : QueueSection.READY;
        List<Exchange> exchanges = new ArrayList<>();
        for (BrowsedMessage browsed : queue.browse(section, getBrowseLimit())) {
            Exchange exchange = createExchange();
            fillIn(exchange, browsed.messageId(), browsed.headers(),
                    browsed.fields() != null ? browsed.fields() : browsed.body(), browsed.deliveries(),
                    browsed.failure());
            if ((filter == null || filter.test(exchange)) && exchanges.size() < most) {
                exchanges.add(exchange);
            }
        }
        return exchanges;
    }

    /** Gives the exchange a message of this queue as the consumer delivers it: travelling headers, body, ids. */
    void fillIn(Exchange exchange, String messageId, Map<String, Object> headers, Object body, int deliveries,
            String failure) {
        Message message = exchange.getIn();
        headers.forEach((name, value) -> {
            if (!headerFilterStrategy.applyFilterToExternalHeaders(name, value, exchange)) {
                message.setHeader(name, value);
            }
        });
        message.setBody(body);
        message.setMessageId(messageId);
        message.setHeader(ReliableRedisConstants.MESSAGE_ID, messageId);
        message.setHeader(ReliableRedisConstants.DELIVERY_COUNT, deliveries);
        message.setHeader(ReliableRedisConstants.QUEUE, queueName);
        // a property, not a header: a header would give every later send of the route this priority
        exchange.setProperty(ReliableRedisConstants.PRIORITY,
                headers.get(NewMessage.PRIORITY_HEADER) instanceof Integer level ? level : NewMessage.DEFAULT_PRIORITY);
        if (headers.get(NewMessage.GROUP_HEADER) instanceof String group) {
            exchange.setProperty(ReliableRedisConstants.GROUP_ID, group);
        }
        if (headers.get(ReliableRedisConstants.SCHEDULED_FOR) instanceof Long tick) {
            message.setHeader(ReliableRedisConstants.SCHEDULED_FOR, tick);
        }
        if (failure != null) {
            message.setHeader(ReliableRedisConstants.FAILURE, failure);
        }
    }

    /** The message's headers that travel with it: what the header filter lets out, of the types that can travel. */
    Map<String, Object> travellingHeaders(Exchange exchange, Message message) {
        Map<String, Object> headers = new LinkedHashMap<>();
        message.getHeaders().forEach((name, value) -> {
            if (headerFilterStrategy.applyFilterToCamelHeaders(name, value, exchange)) {
                return;
            }
            if (NewMessage.canCarry(value)) {
                headers.put(name, value);
            } else {
                LOG.debug("Header '{}' of type {} does not travel: only String, Integer, Long, Double, Boolean "
                          + "and byte[] values do", OneLine.of(name),
                        value == null ? "null" : value.getClass().getName());
            }
        });
        return headers;
    }

    /**
     * The reply to a request that the exchange completed: its body as bytes and its travelling headers, or an error
     * reply when the body cannot be converted to bytes.
     */
    Reply reply(Exchange exchange, ReplyTo requester) {
        Message message = exchange.getMessage();
        byte[] body;
        try {
            body = message.getBody() == null ? new byte[0]
                    : getCamelContext().getTypeConverter().mandatoryConvertTo(byte[].class, exchange, message.getBody());
        } catch (NoTypeConversionAvailableException | TypeConversionException e) {
            return Reply.failed(requester.correlationId(), "The reply of queue '" + queueName
                    + "' has a body that cannot be converted to bytes: " + e.getMessage());
        }
        return new Reply(requester.correlationId(), body, travellingHeaders(exchange, message), null);
    }

    /** Sets the reply's body and travelling headers (as the header filter lets them in) on the message. */
    void fillIn(Exchange exchange, Reply reply) {
        Message message = exchange.getMessage();
        reply.headers().forEach((name, value) -> {
            if (!headerFilterStrategy.applyFilterToExternalHeaders(name, value, exchange)) {
                message.setHeader(name, value);
            }
        });
        message.setBody(reply.body());
    }

    @Override
    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return headerFilterStrategy;
    }

    @Override
    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        this.headerFilterStrategy = headerFilterStrategy;
    }

    /**
     * The endpoint URI with its secret options masked and redisUri described from the parsed URI: Camel's own
     * sanitizing finds a password by a pattern, which some passwords slip through.
     */
    @Override
    public String toString() {
        String uri = getEndpointUri();
        int query = uri.indexOf('?');
        if (query < 0) {
            return uri;
        }
        Map<String, Object> options;
        try {
            options = URISupport.parseQuery(uri.substring(query + 1), true, true);
        } catch (URISyntaxException e) {
            return uri.substring(0, query);
        }
        for (String secret : URI_FACTORY.secretPropertyNames()) {
            options.computeIfPresent(secret, (name, value) -> name.equals("redisUri")
                    ? RedisUris.describe(configuration.getRedisUri()) : "xxxxxx");
        }
        StringJoiner text = new StringJoiner("&", uri.substring(0, query + 1), "");
        options.forEach((name, value) -> text.add(name + "=" + value));
        return text.toString();
    }
}
