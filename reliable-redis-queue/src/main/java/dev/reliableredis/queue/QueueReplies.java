package dev.reliableredis.queue;

import java.util.concurrent.CompletableFuture;

/**
 * A queue's side of request-reply: the replies its consumers send to a requester's inbox.
 */
public interface QueueReplies {

    /** Appends the reply to the inbox when the settlement acked the request; the settlement's result. */
    default CompletableFuture<Settled> replyIfAcked(Settled settled, ReplyTo to, Reply reply) {
        return settled != Settled.ACKED || to == null ? CompletableFuture.completedFuture(settled)
                : replyAsync(to, reply).thenApply(done -> settled);
    }

    /** Appends the reply to the requester's inbox in a call of its own (a dead-lettered request's error reply). */
    CompletableFuture<Void> replyAsync(ReplyTo to, Reply reply);
}
