package dev.reliableredis.queue.runtime;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.redis.Credentials;
import dev.reliableredis.queue.redis.OneLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a Redis outage once: the first failure of any of a consumer's activities (claiming, reaping, extending
 * leases, settling, firing schedules) goes to its handler (the Camel consumer's exception handler, so that
 * {@code bridgeErrorHandler} and {@code exceptionHandler} work as with every Camel consumer). Later failures are
 * DEBUG. The outage ends, with one INFO line, when every activity that failed succeeds again: one activity's
 * success says nothing about another's calls (a lease-extension tick with no leases makes none at all), so it
 * cannot end the outage for them. Its {@link #state()} is what the consumer's health check, JMX attributes and dev
 * console show.
 */
public final class OutageReport {

    private static final Logger LOG = LoggerFactory.getLogger(OutageReport.class);

    private final String queue;
    private final BiConsumer<String, Throwable> handler;
    private final Executor reporter;
    private final Set<String> failing = new HashSet<>();
    private int failures;
    private boolean reached;
    private Instant outageStart;
    private Throwable outageCause;
    private boolean authenticationReported;
    private Outage lastOutage;
    /**
     * Written under the lock: Redis has been reached and no activity fails. Read without it by {@link #succeeded},
     * which then has nothing to change: a settlement call succeeds for every lease it settled, and those calls would
     * otherwise all queue on this monitor.
     */
    private volatile boolean healthy;

    /**
     * What the consumer knows of Redis now.
     *
     * @param reached    a call of any activity has succeeded since the consumer started
     * @param outage     the outage under way, or null
     * @param lastOutage the last outage that ended, or null
     */
    public record State(boolean reached, Outage outage, Outage lastOutage) {

        /** Redis answers: it has, and no activity fails now. */
        public boolean up() {
            return reached && outage == null;
        }
    }

    /**
     * @param ended  null while it lasts
     * @param reason the latest failure's reason, with secrets masked
     * @param cause  the latest failure
     */
    public record Outage(Instant started, Instant ended, int failedAttempts, String reason, Throwable cause) {
    }

    /**
     * @param handler  is told of each outage, with a message and the failure
     * @param reporter runs the handler, so that a slow one delays no lease extension or settlement
     */
    public OutageReport(String queue, BiConsumer<String, Throwable> handler, Executor reporter) {
        this.queue = queue;
        this.handler = handler;
        this.reporter = reporter;
    }

    /**
     * One failed Redis call of the activity. An outage is reported once, and once more if it turns out to be a
     * refused login: Lettuce (6.8 and 7) can first report only the connection its refused handshake cut.
     */
    public void failed(String activity, Throwable cause) {
        boolean report;
        int attempt;
        String reason = reasonOf(cause);
        boolean authentication = isAuthenticationFailure(cause);
        synchronized (this) {
            boolean first = failing.isEmpty();
            failing.add(activity);
            healthy = false;
            attempt = ++failures;
            // the latest cause: it says what is wrong now
            outageCause = cause;
            if (first) {
                outageStart = Instant.now();
                authenticationReported = false;
            }
            report = first || authentication && !authenticationReported;
            authenticationReported |= report && authentication;
        }
        if (report) {
            report("Redis calls for queue '" + queue + "' fail: " + reason
                   + " (retrying with backoff; reported once until they succeed)", cause);
        } else {
            LOG.debug("Redis calls for queue '{}' still fail (attempt {}, {}): {}", queue, attempt, activity, reason);
        }
    }

    /**
     * On the reporter, outside the lock: a bridged error handler routes an exchange, which may take its time. A
     * handler that throws must not stop the activity that reported, which keeps retrying.
     */
    private void report(String message, Throwable cause) {
        try {
            reporter.execute(() -> {
                try {
                    handler.accept(message, cause);
                } catch (RuntimeException e) {
                    LOG.warn("{} (the exception handler failed too: {})", message, OneLine.of(e.getMessage()), cause);
                }
            });
        } catch (RejectedExecutionException stopped) {
            LOG.warn(message, cause);
        }
    }

    /** The activity's Redis calls succeed (again). */
    public void succeeded(String activity) {
        if (healthy) {
            return;
        }
        synchronized (this) {
            reached = true;
            idle(activity);
        }
    }

    /**
     * The activity has no Redis calls to make (no lease to extend), or gave up on those that failed: it no longer
     * fails, though nothing says that Redis answers.
     */
    public synchronized void idle(String activity) {
        if (failing.remove(activity) && failing.isEmpty()) {
            LOG.info("Redis calls for queue '{}' succeed again after {} failed attempts", queue, failures);
            lastOutage = new Outage(outageStart, Instant.now(), failures, reasonOf(outageCause), outageCause);
            failures = 0;
            outageStart = null;
            outageCause = null;
        }
        healthy = reached && failing.isEmpty();
    }

    public synchronized State state() {
        Outage now = failing.isEmpty() ? null
                : new Outage(outageStart, null, failures, reasonOf(outageCause), outageCause);
        return new State(reached, now, lastOutage);
    }

    private static String reasonOf(Throwable cause) {
        return OneLine.of(Credentials.mask(describe(cause)));
    }

    /**
     * Redis's own words, with an authentication failure, a refusal by the Redis ACL (the password is right then,
     * the user's permissions are not) and a failed TLS handshake called so.
     */
    private static String describe(Throwable cause) {
        // a queue operation's message has the description already; a connection's failure needs one
        String message = cause instanceof QueueException ? cause.getMessage() : QueueException.describe(cause);
        if (isAuthenticationFailure(cause)) {
            return "authentication failed (check username and password): " + message;
        }
        return anyMessage(cause, QueueException::isAclRefusal)
                ? "the Redis user lacks a permission the component needs (ACL): " + message
                : message;
    }

    private static boolean isAuthenticationFailure(Throwable cause) {
        return anyMessage(cause, text -> text.contains("WRONGPASS") || text.contains("NOAUTH"));
    }

    private static boolean anyMessage(Throwable cause, Predicate<String> test) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (test.test(String.valueOf(t.getMessage()))) {
                return true;
            }
        }
        return false;
    }
}
