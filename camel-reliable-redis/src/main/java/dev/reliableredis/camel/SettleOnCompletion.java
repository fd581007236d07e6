package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.redis.OneLine;
import dev.reliableredis.queue.runtime.Settler;
import org.apache.camel.Exchange;
import org.apache.camel.TypeConversionException;
import org.apache.camel.spi.Synchronization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one delivery's outcome to the settler when its exchange is done: a completed exchange (also one whose
 * failure an error handler handled, or that was filtered or stopped) is acked; a failed one, or one marked
 * rollback-only, is nacked with the reason. An exchange that carries the header
 * {@link ReliableRedisConstants#RETRY_AFTER}, completed or failed, is given back to be due again after it instead.
 * The ack of an exchange that sent through producers with {@code exactlyOnce=true} enqueues what it sent (see
 * {@link HeldSends}); any other outcome drops that. A request's ack carries the route's result to its requester, and
 * its dead-lettering an error reply; an attempt that is retried replies nothing.
 */
final class SettleOnCompletion implements Synchronization {

    private static final Logger LOG = LoggerFactory.getLogger(SettleOnCompletion.class);
    private static final String ROLLED_BACK = "rolled back (marked rollback-only)";

    private final Settler settler;
    private final Lease lease;
    private final HeldSends held;
    /** Where the reply goes when the delivery is a request, else null. */
    private final ReplyTo requester;
    private final ReliableRedisEndpoint endpoint;

    SettleOnCompletion(Settler settler, Lease lease, HeldSends held, ReplyTo requester,
            ReliableRedisEndpoint endpoint) {
        this.settler = settler;
        this.lease = lease;
        this.held = held;
        this.requester = requester;
        this.endpoint = endpoint;
    }

    @Override
    public void onComplete(Exchange exchange) {
        // whatever the outcome, nothing more is held: only an ack enqueues what was
        List<HandOff> handOffs = held.settle();
        Duration retryAfter = retryAfter(exchange);
        if (retryAfter != null) {
            settler.retryAfter(lease, retryAfter);
        } else if (exchange.isRollbackOnly() || exchange.isRollbackOnlyLast()) {
            // markRollbackOnly() and markRollbackOnlyLast() stop the route without an exception: Camel reports the
            // exchange as complete, but the route asked for the message to be tried again
            settler.nack(lease, ROLLED_BACK, requester);
        } else if (handOffs.isEmpty() && requester == null) {
            settler.ack(lease);
        } else {
            settler.handOff(lease, handOffs, requester, requester == null ? null : endpoint.reply(exchange, requester));
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        held.settle();
        Duration retryAfter = retryAfter(exchange);
        if (retryAfter != null) {
            settler.retryAfter(lease, retryAfter);
        } else {
            settler.nack(lease, reason(exchange), requester);
        }
    }

    /**
     * The retry-after the route asked for, or null. A value that is not a number of ms, or is negative, is not
     * followed: the exchange settles as if it were not set, and a WARN says why.
     */
    private Duration retryAfter(Exchange exchange) {
        Object value = exchange.getMessage().getHeader(ReliableRedisConstants.RETRY_AFTER);
        if (value == null) {
            return null;
        }
        Long millis;
        try {
            millis = exchange.getContext().getTypeConverter().convertTo(Long.class, exchange, value);
        } catch (TypeConversionException e) {
            millis = null;
        }
        if (millis == null || millis < 0) {
            LOG.warn("The header {} of message '{}' is '{}', not a number of ms of 0 or more: the message is settled as "
                     + "if it were not set", ReliableRedisConstants.RETRY_AFTER, OneLine.of(lease.messageId()),
                    OneLine.of(value));
            return null;
        }
        return Duration.ofMillis(millis);
    }

    private static String reason(Exchange exchange) {
        Exception cause = exchange.getException();
        if (cause == null) {
            return exchange.isRollbackOnly() ? ROLLED_BACK : "failed";
        }
        return reason(cause);
    }

    /** A failure's reason as the dead letters keep it: the exception's class and message. */
    static String reason(Exception cause) {
        return cause.getClass().getName() + (cause.getMessage() != null ? ": " + cause.getMessage() : "");
    }
}
