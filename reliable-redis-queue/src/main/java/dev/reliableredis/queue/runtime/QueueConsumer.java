package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.RetryAfterException;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.redis.ReplicaWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes a queue from plain Java, with the runtime the Camel consumer runs on: threads that claim together, leases
 * held and extended while a message runs, settlements retried through an outage, and a reaper that returns the
 * messages of consumers that died. The handler's outcome settles each message by the contract's outcome table: it
 * returns, the message is acked; it throws {@link RetryAfterException}, the message is retried after its delay and
 * the delivery does not count as failed; it throws anything else, the delivery failed, and the message is retried
 * after the queue's retry delay while its maxRetries allow, then dead-lettered with the exception as its failure.
 * Redis calls that fail are retried with back-off, and each outage is reported once to the error handler.
 */
public final class QueueConsumer implements AutoCloseable {

    /** Runs one delivered message; its outcome settles it. */
    @FunctionalInterface
    public interface Handler {
        void handle(Delivery delivery) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(QueueConsumer.class);

    private final ReliableQueue queue;
    private final Handler handler;
    private final BiConsumer<String, Throwable> errors;
    private final Duration stopTimeout;
    private final ExecutorService workers;
    private final ScheduledExecutorService leaseTimer;
    private final ScheduledExecutorService housekeeping;
    private final Settler settler;
    private final JointClaim claims;
    private final List<BatchLoop> loops = new ArrayList<>();

    private QueueConsumer(Builder options, Handler handler) {
        this.queue = options.queue;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.errors = options.errors;
        this.stopTimeout = options.stopTimeout;
        String name = "ReliableRedis[" + queue.name() + "]";
        workers = Executors.newFixedThreadPool(options.threads, threads(name));
        leaseTimer = Executors.newSingleThreadScheduledExecutor(threads(name + "-leases"));
        housekeeping = Executors.newSingleThreadScheduledExecutor(threads(name + "-housekeeping"));
        OutageReport outage = new OutageReport(queue.name(), errors, housekeeping);
        LeaseKeeper leases = new LeaseKeeper(queue);
        settler = new Settler(queue, leases, ReplicaWait.OFF, leaseTimer, outage, new QueueActivity(),
                options.maxRetryAfter);
        long every = options.leaseExtension.toMillis();
        leaseTimer.scheduleWithFixedDelay(settler::extendLeases, every, every, TimeUnit.MILLISECONDS);
        new Reaper(queue, options.reaperInterval, housekeeping, outage).start();
        claims = JointClaim.forConsumer(queue, ConsumerNames.generate(), options.threads, options.maxMessagesPerPoll,
                options.pollTimeout, UnaryOperator.identity(), new JointClaim.Events() {
                    @Override
                    public void claimSucceeded(int claimed) {
                        outage.succeeded("claim");
                    }

                    @Override
                    public void claimFailed(RuntimeException cause) {
                        outage.failed("claim", cause);
                    }
                });
        for (int i = 0; i < options.threads; i++) {
            loops.add(new BatchLoop(queue, claims, i, leases, this::run));
        }
        loops.forEach(workers::execute);
    }

    /** A consumer of the queue, to set up and {@link Builder#start start}. */
    public static Builder of(ReliableQueue queue) {
        return new Builder(queue);
    }

    private void run(Delivery delivery, int index, int size) {
        try {
            handler.handle(delivery);
            settler.ack(delivery.lease());
        } catch (RetryAfterException e) {
            settler.retryAfter(delivery.lease(), e.delay());
        } catch (Exception | Error e) {
            settler.nack(delivery.lease(), e.toString(), null);
            errors.accept("Message '" + OneLine.of(delivery.messageId()) + "' of queue '" + queue.name()
                          + "' failed", e);
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    /**
     * Stops claiming, lets the messages running finish and gives back the rest of their batches, and waits for the
     * settlements, all within the stop timeout; what did not settle by then is delivered again when its lease ends.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + stopTimeout.toNanos();
        boolean settled = false;
        try {
            loops.forEach(loop -> loop.stop(false));
            claims.stop();
            workers.shutdown();
            workers.awaitTermination(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            settled = settler.awaitSettled(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            workers.shutdownNow();
            settler.stop();
            claims.close();
            leaseTimer.shutdownNow();
            housekeeping.shutdownNow();
            if (settled) {
                leave();
            } else {
                LOG.warn("Consumer of queue '{}' stopped with deliveries that did not settle in time; their messages "
                         + "are delivered again when their leases expire", queue.name());
            }
        }
    }

    private void leave() {
        try {
            queue.leave();
        } catch (RuntimeException e) {
            LOG.debug("Consumer of queue '{}' could not leave it: {}", queue.name(), OneLine.of(e.getMessage()));
        }
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** The consumer's settings, each with the Camel consumer's default. */
    public static final class Builder {

        private final ReliableQueue queue;
        private int threads = 1;
        private int maxMessagesPerPoll = 10;
        private Duration pollTimeout = Duration.ofSeconds(1);
        private Duration reaperInterval = Duration.ofSeconds(1);
        private Duration leaseExtension = Duration.ofSeconds(10);
        private Duration maxRetryAfter = Duration.ofHours(1);
        private Duration stopTimeout = Duration.ofSeconds(45);
        private BiConsumer<String, Throwable> errors = (what, cause) -> LOG.warn("{}: {}", what, cause.toString());

        private Builder(ReliableQueue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /** Threads that run messages (concurrentConsumers), 1 to 1000. */
        public Builder threads(int threads) {
            this.threads = requireBetween("threads", threads, 1, 1000);
            return this;
        }

        /** The most messages one thread claims at once (maxMessagesPerPoll). */
        public Builder maxMessagesPerPoll(int max) {
            this.maxMessagesPerPoll = requireBetween("maxMessagesPerPoll", max, 1, ReliableQueue.MAX_BATCH);
            return this;
        }

        /** How long an idle consumer waits for a message before it claims again (pollTimeout). */
        public Builder pollTimeout(Duration timeout) {
            this.pollTimeout = requirePositive("pollTimeout", timeout);
            return this;
        }

        /** How often expired leases are returned and due retries made ready (reaperInterval). */
        public Builder reaperInterval(Duration interval) {
            this.reaperInterval = requirePositive("reaperInterval", interval);
            return this;
        }

        /**
         * How often the leases of running messages are extended by the visibility timeout: a third of the queue's
         * visibility timeout, as the Camel consumer does (10 s for the default 30 s).
         */
        public Builder leaseExtension(Duration every) {
            this.leaseExtension = requirePositive("leaseExtension", every);
            return this;
        }

        /** The longest delay a {@link RetryAfterException} is granted (maxRetryAfter). */
        public Builder maxRetryAfter(Duration max) {
            this.maxRetryAfter = requirePositive("maxRetryAfter", max);
            return this;
        }

        /** How long {@link QueueConsumer#close} waits for running messages and their settlements. */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = requirePositive("stopTimeout", timeout);
            return this;
        }

        /** Where failed messages and Redis outages are reported: what failed, and why (a WARN by default). */
        public Builder errors(BiConsumer<String, Throwable> handler) {
            this.errors = Objects.requireNonNull(handler, "errors");
            return this;
        }

        /** Starts the threads, which claim and run messages until {@link QueueConsumer#close}. */
        public QueueConsumer start(Handler handler) {
            return new QueueConsumer(this, handler);
        }

        private static int requireBetween(String option, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", was "
                                                   + value);
            }
            return value;
        }

        private static Duration requirePositive(String option, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(option + " must be a positive duration, was " + value);
            }
            return value;
        }
    }
}
