package dev.reliableredis.queue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A reliable queue on Redis, by job: its data path, its administration and its replies; a queue that also
 * fires a schedule implements {@link QueueSchedules}. Every operation is one atomic script call, timed by the Redis
 * server clock. Implementations are thread-safe.
 */
public interface ReliableQueue extends QueueDataPath, QueueAdmin, QueueReplies {

    /**
     * As {@link #handOffAsync(Lease, List)}, and, for a request ({@code to} not null), appends the reply to its
     * requester's inbox: in the same script call, all or nothing, when the inbox is in the queue's slot (always but
     * for a shard other than 0 on a Redis Cluster); else right after the ack landed, so that a failure between the
     * two leaves the requester without its reply, to time out.
     */
    @Override
    default CompletableFuture<Settled> handOffAsync(Lease lease, List<HandOff> handOffs, ReplyTo to, Reply reply) {
        if (!handOffs.isEmpty()) {
            throw new UnsupportedOperationException(this + " cannot hand messages off in the script call of its ack");
        }
        return ackAsync(List.of(lease)).thenCompose(results -> replyIfAcked(results.get(0), to, reply));
    }

    /** The same queue, delivering its dead letters instead of its ready messages. */
    ReliableQueue deadLetters();
}
