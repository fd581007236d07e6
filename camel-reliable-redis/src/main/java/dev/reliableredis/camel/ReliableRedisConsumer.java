package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.reliableredis.queue.ArrivalWaiter;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.LeaseKeeper;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Settled;
import dev.reliableredis.queue.SettlementBatcher;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims messages under a lease, no more than it has free processing threads, and settles each through a
 * {@link SettleOnCompletion} on its exchange. One poller thread claims; {@code concurrentConsumers} threads
 * process; one thread sends the grouped acks and nacks; one housekeeping thread extends leases and reaps.
 */
public class ReliableRedisConsumer extends DefaultConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisConsumer.class);
    private static final int SETTLEMENT_BATCH = 500;

    private final ReliableRedisConfiguration configuration;
    private final AtomicLong refusedSettlements = new AtomicLong();
    private ReliableQueue queue;
    private ArrivalWaiter arrivals;
    private CountDownLatch stopping;
    private LeaseKeeper leases;
    private SettlementBatcher settlements;
    private OutageLog outage;
    private Semaphore freeSlots;
    private volatile boolean polling;
    private ExecutorService poller;
    private ExecutorService workers;
    private ExecutorService settler;
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
        arrivals = queue.newArrivalWaiter();
        stopping = new CountDownLatch(1);
        leases = new LeaseKeeper(queue);
        outage = new OutageLog(LOG, queue.name());

        ExecutorServiceManager executors = endpoint.getCamelContext().getExecutorServiceManager();
        String name = "ReliableRedis[" + queue.name() + "]";
        int threads = configuration.getConcurrentConsumers();
        workers = executors.newFixedThreadPool(this, name, threads);
        settler = executors.newSingleThreadExecutor(this, name + "-settle");
        settlements = new SettlementBatcher(queue, settler, SETTLEMENT_BATCH);
        housekeeping = executors.newSingleThreadScheduledExecutor(this, name + "-housekeeping");
        housekeeping.scheduleWithFixedDelay(this::reap, 0, configuration.getReaperInterval(), TimeUnit.MILLISECONDS);
        if (configuration.isExtendVisibility()) {
            long every = Math.max(1, configuration.getVisibilityTimeout() / 3);
            housekeeping.scheduleWithFixedDelay(this::extendLeases, every, every, TimeUnit.MILLISECONDS);
        }
        freeSlots = new Semaphore(threads);
        polling = true;
        poller = executors.newSingleThreadExecutor(this, name + "-poll");
        poller.execute(this::poll);
    }

    @Override
    protected void doStop() throws Exception {
        polling = false;
        ExecutorServiceManager executors = getEndpoint().getCamelContext().getExecutorServiceManager();
        if (poller != null) {
            stopping.countDown();
            arrivals.wakeUp();
            // as long as Camel itself waits for exchanges in flight on shutdown
            long timeout = getEndpoint().getCamelContext().getShutdownStrategy().getTimeUnit()
                    .toMillis(getEndpoint().getCamelContext().getShutdownStrategy().getTimeout());
            // lets a claim under way finish, so that nothing is left claimed but unstarted
            executors.shutdownGraceful(poller, timeout);
            // exchanges in flight finish and settle; then their acks and nacks are sent
            executors.shutdownGraceful(workers, timeout);
            executors.shutdownGraceful(settler, timeout);
            executors.shutdownNow(housekeeping);
            leaveQueue();
            arrivals.close();
            poller = null;
        }
        super.doStop();
    }

    private void poll() {
        int max = configuration.getMaxMessagesPerPoll();
        Duration idleWait = Duration.ofMillis(configuration.getReaperInterval());
        try {
            while (polling) {
                if (!freeSlots.tryAcquire(idleWait.toMillis(), TimeUnit.MILLISECONDS)) {
                    continue;
                }
                int acquired = 1 + freeSlots.drainPermits();
                int slots = Math.min(max, acquired);
                freeSlots.release(acquired - slots);
                claimAndDispatch(slots, idleWait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void claimAndDispatch(int slots, Duration idleWait) throws InterruptedException {
        if (!polling) {
            freeSlots.release(slots);
            return;
        }
        List<Delivery> deliveries;
        try {
            long mark = arrivals.mark();
            deliveries = queue.claim(slots);
            if (deliveries.isEmpty() && polling) {
                deliveries = arrivals.await(mark, slots, idleWait);
            }
            outage.recovered();
        } catch (RuntimeException e) {
            freeSlots.release(slots);
            stopping.await(outage.failed(e).toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        freeSlots.release(slots - deliveries.size());
        if (!polling) {
            giveBack(deliveries);
            freeSlots.release(deliveries.size());
            return;
        }
        for (Delivery delivery : deliveries) {
            dispatch(delivery);
        }
    }

    private void dispatch(Delivery delivery) {
        // the slot goes back to this start's semaphore even if the worker outlives a restart
        Semaphore slots = freeSlots;
        try {
            workers.execute(() -> process(delivery, slots));
        } catch (RejectedExecutionException e) {
            giveBack(List.of(delivery));
            slots.release();
        }
    }

    private void process(Delivery delivery, Semaphore slots) {
        Exchange exchange = null;
        try {
            exchange = createExchange(false);
            fillIn(exchange, delivery);
            leases.hold(delivery.lease());
            exchange.getExchangeExtension().addOnCompletion(new SettleOnCompletion(this, delivery.lease()));
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
        Message message = exchange.getIn();
        HeaderFilterStrategy filter = getEndpoint().getHeaderFilterStrategy();
        delivery.headers().forEach((name, value) -> {
            if (!filter.applyFilterToExternalHeaders(name, value, exchange)) {
                message.setHeader(name, value);
            }
        });
        message.setBody(delivery.fields() != null ? delivery.fields() : delivery.body());
        message.setMessageId(delivery.messageId());
        message.setHeader(ReliableRedisConstants.MESSAGE_ID, delivery.messageId());
        message.setHeader(ReliableRedisConstants.DELIVERY_COUNT, delivery.deliveryCount());
        message.setHeader(ReliableRedisConstants.QUEUE, queue.name());
        message.setHeader(ReliableRedisConstants.ENQUEUED_AT, delivery.enqueuedAt());
        if (delivery.failure() != null) {
            message.setHeader(ReliableRedisConstants.FAILURE, delivery.failure());
        }
    }

    void ack(Lease lease) {
        leases.drop(lease);
        settlements.ack(lease).whenComplete((result, error) -> settled("ack", lease, result, error));
    }

    void nack(Lease lease, String reason) {
        leases.drop(lease);
        settlements.nack(new Failure(lease, reason)).whenComplete((result, error) -> settled("nack", lease, result, error));
    }

    private void settled(String operation, Lease lease, Settled result, Throwable error) {
        if (error != null) {
            getExceptionHandler().handleException("Could not " + operation + " message '" + lease.id()
                                                  + "'; it is delivered again when its lease expires", error);
        } else if (result == Settled.REFUSED) {
            refusedSettlements.incrementAndGet();
            LOG.warn("The {} of message '{}' of queue '{}' was refused: its lease had expired and the message was "
                     + "returned or claimed again", operation, lease.id(), queue.name());
        } else if (result == Settled.DEAD_LETTERED) {
            LOG.debug("Message '{}' of queue '{}' moved to the dead letters", lease.id(), queue.name());
        }
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

    private void extendLeases() {
        try {
            for (Lease lost : leases.extendAll()) {
                LOG.warn("The lease of message '{}' of queue '{}' was lost before its exchange finished; the message "
                         + "may be processed twice", lost.id(), queue.name());
            }
            outage.recovered();
        } catch (RuntimeException e) {
            outage.failed(e);
        }
    }

    private void reap() {
        try {
            queue.reap();
            outage.recovered();
        } catch (RuntimeException e) {
            outage.failed(e);
        }
    }

    /** Acks and nacks that Redis refused because the lease had already expired and moved on. */
    public long getRefusedSettlementCount() {
        return refusedSettlements.get();
    }

    /** Deliveries being processed now. */
    public int getInflightCount() {
        return leases == null ? 0 : leases.size();
    }

    @Override
    public String toString() {
        return "ReliableRedisConsumer[" + getEndpoint().getQueueName() + "]";
    }
}
