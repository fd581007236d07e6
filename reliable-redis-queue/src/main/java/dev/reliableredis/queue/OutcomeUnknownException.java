package dev.reliableredis.queue;

/**
 * A send (an enqueue, a hand-off committed with an ack) that Redis may have stored: its reply was lost after Redis
 * ran it, or a waitReplicas/waitAof confirmation fell short (then it is stored on the master). Sent again under the
 * same ids (a deduplication id) it is a no-op if it was stored; under new ids it may be stored twice.
 */
public class OutcomeUnknownException extends QueueException {

    public OutcomeUnknownException(String queue, String operation, Throwable cause) {
        this(queue, operation, QueueException.describe(cause));
        initCause(cause);
    }

    public OutcomeUnknownException(String queue, String operation, String reason) {
        super(queue, operation, reason + ". Outcome unknown: Redis may have stored it; sent again under the same ids "
                                + "it is a no-op if it was, under new ids it may be stored twice");
    }
}
