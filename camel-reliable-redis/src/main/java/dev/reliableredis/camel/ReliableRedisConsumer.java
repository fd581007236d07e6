package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.QueueSchedules;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.runtime.BatchLoop;
import dev.reliableredis.queue.runtime.CheckedClaimer;
import dev.reliableredis.queue.runtime.ConsumerNames;
import dev.reliableredis.queue.runtime.JointClaim;
import dev.reliableredis.queue.runtime.LeaseKeeper;
import dev.reliableredis.queue.runtime.OutageReport;
import dev.reliableredis.queue.runtime.QueueActivity.Count;
import dev.reliableredis.queue.runtime.Reaper;
import dev.reliableredis.queue.runtime.ScheduleFirer;
import dev.reliableredis.queue.runtime.Settler;
import dev.reliableredis.queue.schedule.ScheduleTicks;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.Processor;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRepository;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ShutdownAware;
import org.apache.camel.spi.ShutdownStrategy;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code concurrentConsumers} threads, each a {@link BatchLoop}, whose idle threads claim together
 * ({@link JointClaim}): one of them waits (per shard) and claims for all in one script call, each thread a batch of
 * up to {@code maxMessagesPerPoll} messages (no more than its fair share). Each thread holds its batch's leases from
 * the claim on, and runs their exchanges one after the other on its own thread, with Camel's batch properties, as
 * camel-aws2-sqs and camel-kafka batch consumers do. Each exchange's outcome goes to a {@link Settler} through a
 * {@link SettleOnCompletion}; acks and nacks go to Redis in grouped asynchronous calls; one timer thread extends
 * leases and retries settlements; one housekeeping thread runs the {@link Reaper} and reports outages. Its health
 * check, JMX attributes and the dev console show its {@link OutageReport}'s state and its queue's activity.
 */
@ManagedResource(description = "A reliable-redis consumer: its connection to Redis, what it did, and admin "
                               + "operations on its queue")
public class ReliableRedisConsumer extends DefaultConsumer implements ShutdownAware {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisConsumer.class);

    private final ReliableRedisConfiguration configuration;
    private ReliableQueue queue;
    private OutageReport outage;
    private Settler settler;
    private List<BatchLoop> loops;
    private JointClaim claims;
    private ExecutorService workers;
    private ScheduledExecutorService leaseTimer;
    private ScheduledExecutorService housekeeping;
    private volatile ShutdownRunningTask shutdownRunningTask;

    public ReliableRedisConsumer(ReliableRedisEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.configuration = endpoint.getConfiguration();
    }

    @Override
    public ReliableRedisEndpoint getEndpoint() {
        return (ReliableRedisEndpoint) super.getEndpoint();
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        ReliableRedisEndpoint endpoint = getEndpoint();
        try {
            endpoint.checkShardCount();
        } catch (QueueException redisDown) {
            // a route whose Redis is down still starts; each consumer thread checks before its first claim
            LOG.debug("The shard count of queue '{}' is checked once Redis answers: {}", endpoint.getQueueName(),
                    OneLine.of(redisDown.getMessage()));
        }
        queue = configuration.isConsumeDeadLetters() ? endpoint.queue().deadLetters() : endpoint.queue();
        // health checks are optional: only when the application has a health check registry. Camel's route check
        // calls a disabled check too and then reports UNKNOWN, so a switched-off check is not set at all
        if (endpoint.getComponent().isHealthCheckConsumerEnabled()
            && HealthCheckHelper.getHealthCheckRepository(endpoint.getCamelContext(), "consumers",
                    HealthCheckRepository.class) != null) {
            setHealthCheck(new ReliableRedisConsumerHealthCheck(this, getRouteId()));
        }

        ExecutorServiceManager executors = endpoint.getCamelContext().getExecutorServiceManager();
        String name = "ReliableRedis[" + queue.name() + "]";
        int threads = configuration.getConcurrentConsumers();
        workers = executors.newThreadPool(this, name, pool(name, threads, threads));
        leaseTimer = executors.newScheduledThreadPool(this, name + "-leases", pool(name + "-leases", 1, -1));
        housekeeping = executors.newScheduledThreadPool(this, name + "-housekeeping",
                pool(name + "-housekeeping", 1, -1));
        outage = new OutageReport(queue.name(), getExceptionHandler()::handleException, housekeeping);
        LeaseKeeper leases = new LeaseKeeper(queue);
        settler = new Settler(queue, leases, endpoint.replicaWait(), leaseTimer, outage, endpoint.activity(),
                Duration.ofMillis(configuration.getMaxRetryAfter()));
        if (configuration.isExtendVisibility()) {
            long every = Math.max(1, configuration.getVisibilityTimeout() / 3);
            leaseTimer.scheduleWithFixedDelay(settler::extendLeases, every, every, TimeUnit.MILLISECONDS);
        }
        new Reaper(queue, Duration.ofMillis(configuration.getReaperInterval()), housekeeping, outage).start();
        // an endpoint refuses a schedule on a sharded queue, the one kind that has none
        if (configuration.getSchedule() != null && !configuration.isConsumeDeadLetters()
            && queue instanceof QueueSchedules schedules) {
            new ScheduleFirer(schedules, configuration.schedule(), configuration.getScheduleTimeZone(),
                    ScheduleTicks.Missed.of(configuration.getMissedTicks()), housekeeping, outage).start();
        }
        JointClaim.Events events = new JointClaim.Events() {
            @Override
            public void claimSucceeded(int claimed) {
                outage.succeeded("claim");
                endpoint.activity().claimed(claimed);
            }

            @Override
            public void claimFailed(RuntimeException cause) {
                outage.failed("claim", cause);
            }
        };
        claims = JointClaim.forConsumer(queue, ConsumerNames.generate(), threads,
                configuration.getMaxMessagesPerPoll(), Duration.ofMillis(configuration.getPollTimeout()),
                wait -> new CheckedClaimer(endpoint::checkShardCount, wait), events);
        loops = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            loops.add(new BatchLoop(queue, claims, i, leases, this::process));
        }
        loops.forEach(workers::execute);
        endpoint.consumerStarted();
    }

    /**
     * Pools that refuse tasks once shut down (Camel's default profile runs them on the caller, or drops them after a
     * shutdown), whatever the application's default thread pool profile says.
     */
    private static ThreadPoolProfile pool(String name, int threads, int queueSize) {
        ThreadPoolProfile profile = new ThreadPoolProfile(name);
        profile.setPoolSize(threads);
        profile.setMaxPoolSize(threads);
        profile.setMaxQueueSize(queueSize);
        profile.setRejectedPolicy(ThreadPoolRejectedPolicy.Abort);
        return profile;
    }

    @Override
    protected void doStop() throws Exception {
        if (loops == null) {
            super.doStop();
            return;
        }
        ExecutorServiceManager executors = getEndpoint().getCamelContext().getExecutorServiceManager();
        // one deadline for all the waiting below: as long as Camel itself waits for exchanges in flight
        ShutdownStrategy shutdown = getEndpoint().getCamelContext().getShutdownStrategy();
        long deadline = System.nanoTime() + shutdown.getTimeUnit().toNanos(shutdown.getTimeout());
        boolean settled = false;
        try {
            boolean finishBatches = completesAllTasks();
            loops.forEach(loop -> loop.stop(finishBatches));
            claims.stop();
            // the exchanges running finish (with CompleteAllTasks, their batches too); the rest of each batch is
            // given back; settlements go out, retried while their leases are extended
            executors.shutdownGraceful(workers, millisLeft(deadline));
            settled = settler.awaitSettled(deadline);
        } finally {
            settler.stop();
            claims.close();
            executors.shutdownNow(leaseTimer);
            executors.shutdownNow(housekeeping);
            if (settled) {
                leaveQueue();
            } else {
                LOG.warn("Consumer of queue '{}' stopped with deliveries that did not settle in time; their messages "
                         + "are delivered again when their leases expire", queue.name());
            }
            loops = null;
            getEndpoint().consumerStopped();
            super.doStop();
        }
    }

    /** Camel's ShutdownRunningTask of the route: CompleteAllTasks runs the rest of each batch before stopping. */
    private boolean completesAllTasks() {
        ShutdownRunningTask task = shutdownRunningTask;
        if (task == null && getRoute() != null) {
            task = getRoute().getShutdownRunningTask();
        }
        return task == ShutdownRunningTask.CompleteAllTasks;
    }

    private static long millisLeft(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    /**
     * Runs one delivery of a batch as an exchange, on its loop's thread; its outcome settles it. A failure before its
     * settlement is registered (a headerFilterStrategy that throws) fails the delivery: nothing else would end its
     * lease, which the settler holds and extends.
     */
    private void process(Delivery delivery, int index, int size) {
        ReplyTo requester = requester(delivery);
        Exchange exchange = null;
        boolean settles = false;
        try {
            exchange = createExchange(false);
            fillIn(exchange, delivery);
            exchange.setProperty(ExchangePropertyKey.BATCH_INDEX, index);
            exchange.setProperty(ExchangePropertyKey.BATCH_SIZE, size);
            exchange.setProperty(ExchangePropertyKey.BATCH_COMPLETE, index == size - 1);
            getEndpoint().activity().add(Count.DELIVERED, 1);
            HeldSends held = new HeldSends(queue, configuration.getSlotGroup(), delivery.messageId());
            exchange.setProperty(HeldSends.PROPERTY, held);
            exchange.getExchangeExtension().addOnCompletion(
                    new SettleOnCompletion(settler, delivery.lease(), held, requester, getEndpoint()));
            settles = true;
            getProcessor().process(exchange);
        } catch (Exception e) {
            if (!settles) {
                settler.nack(delivery.lease(), SettleOnCompletion.reason(e), requester);
            }
            getExceptionHandler().handleException("Error processing message '" + OneLine.of(delivery.messageId())
                                                  + "' of queue '" + queue.name() + "'", exchange, e);
        } finally {
            if (exchange != null) {
                releaseExchange(exchange, false);
            }
        }
    }

    /**
     * Where the delivery's reply goes, when it is a request: null for any other message, and for a dead letter,
     * which was answered when it was dead-lettered.
     */
    private ReplyTo requester(Delivery delivery) {
        if (configuration.isConsumeDeadLetters()) {
            return null;
        }
        try {
            return ReplyTo.of(delivery.headers());
        } catch (IllegalArgumentException e) {
            LOG.warn("Message '{}' of queue '{}' is settled without a reply: {}", OneLine.of(delivery.messageId()),
                    queue.name(), OneLine.of(e.getMessage()));
            return null;
        }
    }

    private void fillIn(Exchange exchange, Delivery delivery) {
        getEndpoint().fillIn(exchange, delivery.messageId(), delivery.headers(),
                delivery.fields() != null ? delivery.fields() : delivery.body(), delivery.deliveryCount(),
                delivery.failure());
        exchange.getIn().setHeader(ReliableRedisConstants.ENQUEUED_AT, delivery.enqueuedAt());
    }

    private void leaveQueue() {
        try {
            queue.leave();
        } catch (RuntimeException e) {
            LOG.debug("Consumer of queue '{}' could not leave it: {}", queue.name(), OneLine.of(e.getMessage()));
        }
    }

    @Override
    public boolean deferShutdown(ShutdownRunningTask shutdownRunningTask) {
        this.shutdownRunningTask = shutdownRunningTask;
        return false;
    }

    /** With CompleteAllTasks, the claimed messages not started yet: Camel waits for them as for exchanges. */
    @Override
    public int getPendingExchangesSize() {
        List<BatchLoop> running = loops;
        if (running == null || !completesAllTasks()) {
            return 0;
        }
        return running.stream().mapToInt(BatchLoop::waiting).sum();
    }

    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        // the stop itself gives back or runs the rest of each batch
    }

    /** What the consumer knows of Redis: null before its first start. */
    OutageReport.State redisState() {
        OutageReport report = outage;
        return report == null ? null : report.state();
    }

    @ManagedAttribute(description = "The queue name")
    public String getQueueName() {
        return getEndpoint().getQueueName();
    }

    @ManagedAttribute(description = "Whether it consumes the queue's dead letters")
    public boolean isConsumeDeadLetters() {
        return configuration.isConsumeDeadLetters();
    }

    @ManagedAttribute(description = "Whether Redis answers: it has since the start, and no activity fails now")
    public boolean isRedisUp() {
        OutageReport.State state = redisState();
        return state != null && state.up();
    }

    @ManagedAttribute(description = "When the Redis outage under way began (ISO-8601), or empty")
    public String getOutageSince() {
        OutageReport.State state = redisState();
        return state == null || state.outage() == null ? "" : state.outage().started().toString();
    }

    @ManagedAttribute(description = "Why Redis calls fail now, or why they failed in the last outage, or empty")
    public String getLastOutageReason() {
        OutageReport.State state = redisState();
        if (state == null) {
            return "";
        }
        OutageReport.Outage last = state.outage() != null ? state.outage() : state.lastOutage();
        return last == null ? "" : last.reason();
    }

    /** Deliveries held now: waiting behind their batch-mates, being processed, or settling. */
    @ManagedAttribute(description = "Deliveries of this consumer held now: waiting behind their batch-mates, being "
                                    + "processed, or settling")
    public int getInflightCount() {
        return settler == null ? 0 : settler.heldCount();
    }

    @ManagedAttribute(description = "Deliveries to routes of this queue in this CamelContext")
    public long getDeliveredCount() {
        return getEndpoint().activity().get(Count.DELIVERED);
    }

    @ManagedAttribute(description = "Claim calls to Redis of the consumers of this queue in this CamelContext, "
                                    + "also those that found nothing")
    public long getClaimCallCount() {
        return getEndpoint().activity().get(Count.CLAIM_CALLS);
    }

    @ManagedAttribute(description = "Claim calls of those that took at least one message")
    public long getNonEmptyClaimCallCount() {
        return getEndpoint().activity().get(Count.NON_EMPTY_CLAIM_CALLS);
    }

    @ManagedAttribute(description = "Messages those claim calls took")
    public long getClaimedCount() {
        return getEndpoint().activity().get(Count.CLAIMED);
    }

    @ManagedAttribute(description = "Ack calls to Redis (each carries the acks that were waiting)")
    public long getAckCallCount() {
        return getEndpoint().activity().get(Count.ACK_CALLS);
    }

    @ManagedAttribute(description = "Deliveries acked")
    public long getAckedCount() {
        return getEndpoint().activity().get(Count.ACKED);
    }

    @ManagedAttribute(description = "Deliveries that failed and wait for a retry")
    public long getRetriedCount() {
        return getEndpoint().activity().get(Count.RETRIED);
    }

    @ManagedAttribute(description = "Deliveries given back because the route set CamelReliableRedisRetryAfter")
    public long getRetriedAfterCount() {
        return getEndpoint().activity().get(Count.RETRIED_AFTER);
    }

    @ManagedAttribute(description = "Deliveries that failed for the last time and became dead letters")
    public long getDeadLetteredCount() {
        return getEndpoint().activity().get(Count.DEAD_LETTERED);
    }

    /** Acks and nacks that Redis refused because the lease had already expired and moved on. */
    @ManagedAttribute(description = "Acks and nacks Redis refused because the lease had expired and moved on")
    public long getRefusedSettlementCount() {
        return getEndpoint().activity().get(Count.REFUSED);
    }

    /** Acks done on the master that fewer replicas than waitReplicas confirmed within waitTimeout. */
    @ManagedAttribute(description = "Acks done on the master that fewer replicas than waitReplicas confirmed within "
                                    + "waitTimeout (a failover may deliver their messages again)")
    public long getUnreplicatedAckCount() {
        return getEndpoint().activity().get(Count.UNREPLICATED_ACKS);
    }

    @ManagedAttribute(description = "Leases extended while their messages waited or ran")
    public long getLeaseExtensionCount() {
        return getEndpoint().activity().get(Count.LEASE_EXTENSIONS);
    }

    @ManagedAttribute(description = "Leases lost before their exchanges finished (a waiting message is then skipped)")
    public long getLeasesLostCount() {
        return getEndpoint().activity().get(Count.LEASES_LOST);
    }

    @ManagedOperation(description = "The queue's counts, read from Redis now")
    public Map<String, Long> stats() {
        return getEndpoint().stats();
    }

    @ManagedOperation(description = "Moves up to limit dead letters back to ready; returns how many moved")
    public long redrive(long limit) {
        return getEndpoint().redrive(limit);
    }

    @ManagedOperation(description = "Removes every ready, delayed and dead message; returns how many were removed")
    public long purge() {
        return getEndpoint().purge();
    }

    @Override
    public String toString() {
        return "ReliableRedisConsumer[" + getEndpoint().getQueueName() + "]";
    }
}
