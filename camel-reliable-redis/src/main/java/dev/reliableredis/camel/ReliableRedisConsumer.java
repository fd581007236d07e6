package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.ReliableQueue;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRepository;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ShutdownStrategy;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims messages under a lease, no more than it has free processing threads, and hands each exchange's outcome to
 * a {@link Settler} through a {@link SettleOnCompletion}. One poller thread claims (a claim's deliveries may start
 * from Lettuce's I/O thread as its reply arrives); {@code concurrentConsumers} threads process; acks and nacks go to
 * Redis in grouped asynchronous calls; one timer thread extends leases and retries settlements; one housekeeping
 * thread runs the {@link Reaper} and reports outages. Its health check, JMX attributes and the dev console show
 * its {@link OutageReport}'s state and its queue's activity.
 */
@ManagedResource(description = "A reliable-redis consumer: its connection to Redis, what it did, and admin "
                               + "operations on its queue")
public class ReliableRedisConsumer extends DefaultConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisConsumer.class);
    /** How long the poller waits for more free threads while messages are ready. */
    private static final Duration LINGER = Duration.ofMillis(2);

    private final ReliableRedisConfiguration configuration;
    private ReliableQueue queue;
    private OutageReport outage;
    private Settler settler;
    private Poller poller;
    private ExecutorService pollerThread;
    private ExecutorService workers;
    private ScheduledExecutorService leaseTimer;
    private ScheduledExecutorService housekeeping;

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
        // a worker that has just given back its slot may not wait for the next task yet: a queue as long as the
        // pool holds the task meanwhile; there are never more tasks than slots
        workers = executors.newThreadPool(this, name, pool(name, threads, threads));
        leaseTimer = executors.newScheduledThreadPool(this, name + "-leases", pool(name + "-leases", 1, -1));
        housekeeping = executors.newScheduledThreadPool(this, name + "-housekeeping",
                pool(name + "-housekeeping", 1, -1));
        outage = new OutageReport(queue.name(), getExceptionHandler(), housekeeping);
        settler = new Settler(queue, endpoint.replicaWait(), leaseTimer, outage, endpoint.activity());
        if (configuration.isExtendVisibility()) {
            long every = Math.max(1, configuration.getVisibilityTimeout() / 3);
            leaseTimer.scheduleWithFixedDelay(settler::extendLeases, every, every, TimeUnit.MILLISECONDS);
        }
        new Reaper(queue, Duration.ofMillis(configuration.getReaperInterval()), housekeeping, outage).start();
        poller = new Poller(queue.newClaimer(), new ProcessingSlots(threads));
        pollerThread = executors.newThreadPool(this, name + "-poll", pool(name + "-poll", 1, 1));
        pollerThread.execute(poller);
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
        if (poller == null) {
            super.doStop();
            return;
        }
        ExecutorServiceManager executors = getEndpoint().getCamelContext().getExecutorServiceManager();
        // one deadline for all the waiting below: as long as Camel itself waits for exchanges in flight
        ShutdownStrategy shutdown = getEndpoint().getCamelContext().getShutdownStrategy();
        long deadline = System.nanoTime() + shutdown.getTimeUnit().toNanos(shutdown.getTimeout());
        boolean settled = false;
        try {
            poller.stop();
            // lets a claim under way finish, so that nothing is left claimed but unstarted
            executors.shutdownGraceful(pollerThread, millisLeft(deadline));
            // exchanges in flight finish; their settlements go out, retried while their leases are extended
            executors.shutdownGraceful(workers, millisLeft(deadline));
            settled = settler.awaitSettled(deadline);
        } finally {
            settler.stop();
            executors.shutdownNow(leaseTimer);
            executors.shutdownNow(housekeeping);
            if (settled) {
                leaveQueue();
            } else {
                LOG.warn("Consumer of queue '{}' stopped with deliveries that did not settle in time; their messages "
                         + "are delivered again when their leases expire", queue.name());
            }
            poller.close();
            poller = null;
            getEndpoint().consumerStopped();
            super.doStop();
        }
    }

    private static long millisLeft(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    /**
     * The claim loop of one start of the consumer, with what it uses: a poller that outlives a stop can never take
     * part in the next start.
     */
    private final class Poller implements Runnable {

        private final Claimer claimer;
        private final ProcessingSlots slots;
        private final CountDownLatch stopping = new CountDownLatch(1);
        private volatile boolean polling = true;
        /** The last claim was full: more are probably ready. Set when its deliveries start. */
        private volatile boolean backlog;

        Poller(Claimer claimer, ProcessingSlots slots) {
            this.claimer = claimer;
            this.slots = slots;
        }

        @Override
        public void run() {
            int max = configuration.getMaxMessagesPerPoll();
            int fullerBatch = Math.max(1, Math.min(max, configuration.getConcurrentConsumers() / 2));
            Duration idleWait = Duration.ofMillis(configuration.getPollTimeout());
            int failures = 0;
            try {
                while (polling) {
                    int free = slots.awaitFree(1, idleWait);
                    if (backlog && free < fullerBatch) {
                        // while messages wait, claims of one or two as each exchange ends would cost a Redis call
                        // per message; a moment more makes them fewer and fuller
                        free = slots.awaitFree(fullerBatch, LINGER);
                    }
                    if (free == 0 || !polling) {
                        continue;
                    }
                    try {
                        int asked = Math.min(max, free);
                        giveBack(claimer.claim(asked, idleWait, deliveries -> {
                            backlog = deliveries.size() == asked;
                            return start(deliveries);
                        }));
                        failures = 0;
                        outage.succeeded("claim");
                    } catch (RuntimeException e) {
                        if (!polling) {
                            // a claim cut short by the stop
                            return;
                        }
                        outage.failed("claim", e);
                        stopping.await(Backoff.after(++failures).toMillis(), TimeUnit.MILLISECONDS);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * Hands each delivery to a worker; returns those that could not start (the consumer is stopping), to be given
         * back. Runs on the thread that completes the claim, often Lettuce's: it must not wait for anything.
         */
        private List<Delivery> start(List<Delivery> deliveries) {
            if (!polling) {
                return deliveries;
            }
            for (int i = 0; i < deliveries.size(); i++) {
                Delivery delivery = deliveries.get(i);
                slots.take();
                try {
                    workers.execute(() -> process(delivery, slots));
                } catch (RejectedExecutionException e) {
                    slots.release();
                    return deliveries.subList(i, deliveries.size());
                }
            }
            return List.of();
        }

        void stop() {
            polling = false;
            stopping.countDown();
            claimer.wakeUp();
        }

        void close() {
            claimer.close();
        }
    }

    private void process(Delivery delivery, ProcessingSlots slots) {
        Exchange exchange = null;
        try {
            exchange = createExchange(false);
            fillIn(exchange, delivery);
            getEndpoint().activity().delivered.increment();
            settler.hold(delivery.lease());
            exchange.getExchangeExtension().addOnCompletion(new SettleOnCompletion(settler, delivery.lease()));
            getProcessor().process(exchange);
        } catch (Exception e) {
            getExceptionHandler().handleException("Error processing message '" + delivery.messageId()
                                                  + "' of queue '" + queue.name() + "'", exchange, e);
        } finally {
            if (exchange != null) {
                releaseExchange(exchange, false);
            }
            slots.release();
        }
    }

    private void fillIn(Exchange exchange, Delivery delivery) {
        getEndpoint().fillIn(exchange, delivery.messageId(), delivery.headers(),
                delivery.fields() != null ? delivery.fields() : delivery.body(), delivery.deliveryCount(),
                delivery.failure());
        exchange.getIn().setHeader(ReliableRedisConstants.ENQUEUED_AT, delivery.enqueuedAt());
    }

    private void giveBack(List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return;
        }
        try {
            queue.release(deliveries.stream().map(Delivery::lease).toList());
        } catch (RuntimeException e) {
            LOG.warn("Could not give back {} unstarted messages of queue '{}'; they return when their leases expire",
                    deliveries.size(), queue.name(), e);
        }
    }

    private void leaveQueue() {
        try {
            queue.leave();
        } catch (RuntimeException e) {
            LOG.debug("Consumer of queue '{}' could not leave it: {}", queue.name(), e.getMessage());
        }
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

    /** Deliveries being processed or settled now. */
    @ManagedAttribute(description = "Deliveries of this consumer being processed or settled now")
    public int getInflightCount() {
        return settler == null ? 0 : settler.heldCount();
    }

    @ManagedAttribute(description = "Deliveries to routes of this queue in this CamelContext")
    public long getDeliveredCount() {
        return getEndpoint().activity().delivered.sum();
    }

    @ManagedAttribute(description = "Deliveries acked")
    public long getAckedCount() {
        return getEndpoint().activity().acked.sum();
    }

    @ManagedAttribute(description = "Deliveries that failed and wait for a retry")
    public long getRetriedCount() {
        return getEndpoint().activity().retried.sum();
    }

    @ManagedAttribute(description = "Deliveries that failed for the last time and became dead letters")
    public long getDeadLetteredCount() {
        return getEndpoint().activity().deadLettered.sum();
    }

    /** Acks and nacks that Redis refused because the lease had already expired and moved on. */
    @ManagedAttribute(description = "Acks and nacks Redis refused because the lease had expired and moved on")
    public long getRefusedSettlementCount() {
        return getEndpoint().activity().refused.sum();
    }

    /** Acks done on the master that fewer replicas than waitReplicas confirmed within waitTimeout. */
    @ManagedAttribute(description = "Acks done on the master that fewer replicas than waitReplicas confirmed within "
                                    + "waitTimeout (a failover may deliver their messages again)")
    public long getUnreplicatedAckCount() {
        return getEndpoint().activity().unreplicatedAcks.sum();
    }

    @ManagedAttribute(description = "Leases extended while their exchanges ran")
    public long getLeaseExtensionCount() {
        return getEndpoint().activity().leaseExtensions.sum();
    }

    @ManagedAttribute(description = "Leases that expired before their exchanges finished")
    public long getLeasesLostCount() {
        return getEndpoint().activity().leasesLost.sum();
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
