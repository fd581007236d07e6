package dev.reliableredis.queue.calls;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyTo;
import dev.reliableredis.queue.internal.LuaScript;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;

import static dev.reliableredis.queue.internal.RedisBytes.bytes;

/** How a queue answers requests, in both modes: where the inbox is, and the reply script. */
public final class Replies {

    private static final LuaScript REPLY = LuaScript.load("reply");

    private Replies() {
    }

    /** The inbox key of the request's requester (see {@link QueueNames#replyKey}). */
    public static byte[] inbox(String keyPrefix, String queue, ReplyTo to) {
        return QueueNames.replyKey(keyPrefix, queue, to.inbox()).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether a script call on {@code queueKey} can write the inbox too: always but on a Redis Cluster, where the
     * inbox of a sharded queue is in shard 0's slot.
     */
    public static boolean inSlotOf(RedisGateway redis, byte[] inbox, byte[] queueKey) {
        return !redis.isCluster() || SlotHash.getSlot(inbox) == SlotHash.getSlot(queueKey);
    }

    /** The reply arguments of the handoff scripts: the reply and its inbox's time to live, or "" and 0. */
    public static void addReply(List<byte[]> args, ReplyTo to, Reply reply) {
        args.add(reply == null ? new byte[0] : reply.encode());
        args.add(bytes(to == null ? 0 : to.timeoutMillis()));
    }

    /** Appends the reply to the inbox in a call of its own (reply.lua). */
    public static CompletableFuture<Void> push(QueueCalls calls, byte[] inbox, ReplyTo to, Reply reply) {
        return calls.<Long>runAsync(null, "reply", REPLY, ScriptOutputType.INTEGER, new byte[][] {inbox},
                reply.encode(), bytes(to.timeoutMillis())).thenApply(done -> null);
    }
}
