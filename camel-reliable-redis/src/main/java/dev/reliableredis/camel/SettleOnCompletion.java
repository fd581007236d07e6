package dev.reliableredis.camel;

import dev.reliableredis.queue.Lease;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;

/**
 * Settles one delivery when its exchange is done: a completed exchange (also one whose failure an error handler
 * handled, or that was filtered or stopped) acks it; a failed one nacks it with the reason.
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
        consumer.ack(lease);
    }

    @Override
    public void onFailure(Exchange exchange) {
        consumer.nack(lease, reason(exchange));
    }

    private static String reason(Exchange exchange) {
        Exception cause = exchange.getException();
        if (cause == null) {
            return exchange.isRollbackOnly() ? "rolled back" : "failed";
        }
        return cause.getClass().getName() + (cause.getMessage() != null ? ": " + cause.getMessage() : "");
    }
}
