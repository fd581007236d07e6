package dev.reliableredis.queue;

/**
 * A send (an enqueue, a hand-off committed with an ack) that Redis did not store and will not store later: it
 * refused the call, ran it after its deadline, or the call timed out, and a call Redis runs after its deadline stores
 * nothing. Safe to send again.
 */
public class NotStoredException extends QueueException {

    public NotStoredException(String queue, String operation, Throwable cause) {
        this(queue, operation, QueueException.describe(cause), cause);
    }

    public NotStoredException(String queue, String operation, String reason, Throwable cause) {
        super(queue, operation, reason + ". Not stored: Redis stores nothing of this call, so it is safe to send "
                                + "again");
        initCause(cause);
    }
}
