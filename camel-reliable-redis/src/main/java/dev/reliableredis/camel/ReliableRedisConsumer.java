package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.ReliableQueue;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.ShutdownStrategy;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims messages under a lease, no more than it has free processing threads, and hands each exchange's outcome to
 * a {@link Settler} through a {@link SettleOnCompletion}. One poller thread claims; {@code concurrentConsumers}
 * threads process; one thread sends the grouped acks and nacks; one timer thread extends leases and retries
 * settlements; one housekeeping thread runs the {@link Reaper}.
 */
public class ReliableRedisConsumer extends DefaultConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisConsumer.class);

    private final ReliableRedisConfiguration configuration;
    private ReliableQueue queue;
    private Claimer claimer;
    private CountDownLatch stopping;
    private OutageReport outage;
    private Settler settler;
    private ProcessingSlots slots;
    private volatile boolean polling;
    private ExecutorService poller;
    private ExecutorService workers;
    private ExecutorService settleSender;
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
        claimer = queue.newClaimer();
        stopping = new CountDownLatch(1);
        outage = new OutageReport(queue.name(), getExceptionHandler());

        ExecutorServiceManager executors = endpoint.getCamelContext().getExecutorServiceManager();
        String name = "ReliableRedis[" + queue.name() + "]";
        int threads = configuration.getConcurrentConsumers();
        workers = executors.newFixedThreadPool(this, name, threads);
        settleSender = executors.newSingleThreadExecutor(this, name + "-settle");
        leaseTimer = executors.newSingleThreadScheduledExecutor(this, name + "-leases");
        settler = new Settler(queue, settleSender, leaseTimer, outage);
        if (configuration.isExtendVisibility()) {
            long every = Math.max(1, configuration.getVisibilityTimeout() / 3);
            leaseTimer.scheduleWithFixedDelay(settler::extendLeases, every, every, TimeUnit.MILLISECONDS);
        }
        housekeeping = executors.newSingleThreadScheduledExecutor(this, name + "-housekeeping");
        new Reaper(queue, Duration.ofMillis(configuration.getReaperInterval()), housekeeping, outage).start();
        slots = new ProcessingSlots(threads);
        polling = true;
        poller = executors.newSingleThreadExecutor(this, name + "-poll");
        poller.execute(this::poll);
    }

    @Override
    protected void doStop() throws Exception {
        polling = false;
        if (poller != null) {
            stopping.countDown();
            claimer.wakeUp();
            ExecutorServiceManager executors = getEndpoint().getCamelContext().getExecutorServiceManager();
            // one deadline for all the waiting below: as long as Camel itself waits for exchanges in flight
            ShutdownStrategy shutdown = getEndpoint().getCamelContext().getShutdownStrategy();
            long deadline = System.nanoTime() + shutdown.getTimeUnit().toNanos(shutdown.getTimeout());
            // lets a claim under way finish, so that nothing is left claimed but unstarted
            executors.shutdownGraceful(poller, millisLeft(deadline));
            // exchanges in flight finish; their settlements go out, retried while their leases are extended
            executors.shutdownGraceful(workers, millisLeft(deadline));
            boolean settled = settler.awaitSettled(deadline);
            executors.shutdownNow(settleSender);
            executors.shutdownNow(leaseTimer);
            executors.shutdownNow(housekeeping);
            if (settled) {
                leaveQueue();
            } else {
                LOG.warn("Consumer of queue '{}' stopped with settlements that did not reach Redis; their messages are "
                         + "delivered again when their leases expire", queue.name());
            }
            claimer.close();
            poller = null;
        }
        super.doStop();
    }

    private static long millisLeft(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    private void poll() {
        int max = configuration.getMaxMessagesPerPoll();
        Duration idleWait = Duration.ofMillis(configuration.getReaperInterval());
        int failures = 0;
        try {
            while (polling) {
                int free = slots.awaitFree(idleWait);
                if (free == 0 || !polling) {
                    continue;
                }
                try {
                    dispatch(claimer.claim(Math.min(max, free), idleWait));
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

    private void dispatch(List<Delivery> deliveries) {
        if (!polling) {
            giveBack(deliveries);
            return;
        }
        for (Delivery delivery : deliveries) {
            // the slot goes back to this start's slots even if the worker outlives a restart
            ProcessingSlots taken = slots;
            taken.take();
            try {
                workers.execute(() -> process(delivery, taken));
            } catch (RejectedExecutionException e) {
                taken.release();
                giveBack(List.of(delivery));
            }
        }
    }

    private void process(Delivery delivery, ProcessingSlots taken) {
        Exchange exchange = null;
        try {
            exchange = createExchange(false);
            fillIn(exchange, delivery);
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
            taken.release();
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

    /** Acks and nacks that Redis refused because the lease had already expired and moved on. */
    public long getRefusedSettlementCount() {
        return settler == null ? 0 : settler.refusedCount();
    }

    /** Deliveries being processed or settled now. */
    public int getInflightCount() {
        return settler == null ? 0 : settler.heldCount();
    }

    @Override
    public String toString() {
        return "ReliableRedisConsumer[" + getEndpoint().getQueueName() + "]";
    }
}
