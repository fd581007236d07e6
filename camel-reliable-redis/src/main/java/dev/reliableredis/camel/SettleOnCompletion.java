package dev.reliableredis.camel;

import dev.reliableredis.queue.Lease;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;

/**
 * Settles one delivery when its exchange is done: a completed exchange (also one whose failure an error handler
 * handled, or that was filtered or stopped) acks it; a failed one, or one marked rollback-only, nacks it with the
 * reason.
 */
final class SettleOnCompletion implements Synchronization {

    private final ReliableRedisConsumer consumer;
    private final Lease lease;

    SettleOnCompletion(ReliableRedisConsumer consumer, Lease lease) {
        this.consumer = consumer;
        this.lease = lease;
    }

    @Override
    public void onComplete(Exchange exchange) {
        // markRollbackOnly() and markRollbackOnlyLast() stop the route without an exception: Camel reports the
        // exchange as complete, but the route asked for the message to be tried again
        if (exchange.isRollbackOnly() || exchange.isRollbackOnlyLast()) {
            consumer.nack(lease, "rolled back (marked rollback-only)");
        } else {
            consumer.ack(lease);
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        consumer.nack(lease, reason(exchange));
    }

    private static String reason(Exchange exchange) {
        Exception cause = exchange.getException();
        if (cause == null) {
            return exchange.isRollbackOnly() ? "rolled back (marked rollback-only)" : "failed";
        }
        return cause.getClass().getName() + (cause.getMessage() != null ? ": " + cause.getMessage() : "");
    }
}
