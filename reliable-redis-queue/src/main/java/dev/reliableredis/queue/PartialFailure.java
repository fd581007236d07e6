package dev.reliableredis.queue;

import java.util.List;

/**
 * A call over several shards that failed on some of them: the results of the shards that answered, in the caller's
 * order, with null for every item of a shard that did not; the cause is the first shard's failure. Lets a caller
 * act on what did land (an extension keeps the leases it could not extend held, and extends them on the next tick).
 */
public final class PartialFailure extends QueueException {

    private final transient List<?> results;

    public PartialFailure(String queue, String operation, RuntimeException cause, List<?> results) {
        super(queue, operation, "a shard did not answer: " + cause.getMessage());
        initCause(cause);
        this.results = results;
    }

    /** One result per item, null where the item's shard failed. */
    @SuppressWarnings("unchecked")
    public <R> List<R> results() {
        return (List<R>) results;
    }
}
