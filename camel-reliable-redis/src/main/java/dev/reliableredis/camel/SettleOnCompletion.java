package dev.reliableredis.camel;

import dev.reliableredis.queue.Lease;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;

/**
 * Hands one delivery's outcome to the settler when its exchange is done: a completed exchange (also one whose
 * failure an error handler handled, or that was filtered or stopped) is acked; a failed one, or one marked
 * rollback-only, is nacked with the reason.
 */
final class SettleOnCompletion implements Synchronization {

    private static final String ROLLED_BACK = "rolled back (marked rollback-only)";

    private final Settler settler;
    private final Lease lease;

    SettleOnCompletion(Settler settler, Lease lease) {
        this.settler = settler;
        this.lease = lease;
    }

    @Override
    public void onComplete(Exchange exchange) {
        // markRollbackOnly() and markRollbackOnlyLast() stop the route without an exception: Camel reports the
        // exchange as complete, but the route asked for the message to be tried again
        if (exchange.isRollbackOnly() || exchange.isRollbackOnlyLast()) {
            settler.nack(lease, ROLLED_BACK);
        } else {
            settler.ack(lease);
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        settler.nack(lease, reason(exchange));
    }

    private static String reason(Exchange exchange) {
        Exception cause = exchange.getException();
        if (cause == null) {
            return exchange.isRollbackOnly() ? ROLLED_BACK : "failed";
        }
        return cause.getClass().getName() + (cause.getMessage() != null ? ": " + cause.getMessage() : "");
    }
}
