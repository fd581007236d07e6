package dev.reliableredis.console;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dashboard's HTTP threads, with a time limit on the client's part of each exchange. The JDK's server reads a
 * request on one of these threads from its first byte on, without a limit but a JVM-wide property that would change
 * the application's other servers too: a client that sends one byte and stalls would hold a thread for good. So
 * reading the request's head, reading an action's body and writing the answer each get {@link #limit}; when it
 * passes, the thread is interrupted, which closes the connection (its channel is interruptible) and frees the
 * thread. While the handler waits for Redis, the command timeout bounds it instead.
 */
final class ClientTimeLimit implements Executor {

    /** The exchange the current thread serves, if it is one of a dashboard's. */
    private static final ThreadLocal<Watch> CURRENT = new ThreadLocal<>();

    private final Duration limit;
    private final ExecutorService threads;
    private final ScheduledThreadPoolExecutor timer;

    ClientTimeLimit(int threads, Duration limit) {
        this.limit = limit;
        this.threads = Executors.newFixedThreadPool(threads, daemonThreads("reliable-redis-dashboard-"));
        this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads("reliable-redis-dashboard-timer-"));
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void execute(Runnable exchange) {
        threads.execute(() -> {
            Watch watch = new Watch(Thread.currentThread());
            CURRENT.set(watch);
            try {
                watch.start();
                exchange.run();
            } finally {
                watch.stop();
                CURRENT.remove();
                // an interrupt that came as the exchange ended must not reach the next one
                Thread.interrupted();
            }
        });
    }

    /** The client's turn: reading an action's body, or writing the answer, from now on within the limit. */
    static void clientsTurn() {
        Watch watch = CURRENT.get();
        if (watch != null) {
            watch.start();
        }
    }

    /**
     * The dashboard's turn, not limited here: the client's part before it is done.
     *
     * @throws UncheckedIOException when the client took longer than the limit
     */
    static void dashboardsTurn() {
        Watch watch = CURRENT.get();
        if (watch != null && watch.stop()) {
            Thread.interrupted();
            throw new UncheckedIOException(new InterruptedIOException("The client took longer than "
                    + watch.limit().toMillis() + " ms"));
        }
    }

    /** Lets the exchanges under way finish, for at most {@code timeout}, their time limits still running. */
    void shutdown(Duration timeout) {
        threads.shutdown();
        try {
            threads.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            timer.shutdownNow();
        }
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One exchange's running limit; a generation tells a deadline that fires from one already replaced. */
    private final class Watch {

        private final Thread thread;
        private long generation;
        private ScheduledFuture<?> deadline;
        private boolean expired;

        Watch(Thread thread) {
            this.thread = thread;
        }

        Duration limit() {
            return limit;
        }

        synchronized void start() {
            stop();
            long mine = ++generation;
            deadline = timer.schedule(() -> expire(mine), limit.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Returns whether the limit had passed. */
        synchronized boolean stop() {
            generation++;
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
            boolean passed = expired;
            expired = false;
            return passed;
        }

        private synchronized void expire(long of) {
            if (of == generation) {
                expired = true;
                thread.interrupt();
            }
        }
    }
}
