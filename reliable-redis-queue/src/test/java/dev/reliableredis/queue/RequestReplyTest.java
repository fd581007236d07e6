package dev.reliableredis.queue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.reliableredis.queue.calls.Replies;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Replies to requests in the engine: the ack of a request carries its reply to the requester's inbox in the same
 * script call, fenced by the lease token; a late reply is dropped; a reply address the component did not write is
 * refused.
 */
class RequestReplyTest extends QueueTestBase {

    private static final QueueSettings SETTINGS = settings(60_000, 3, 100);

    private ReliableQueue queue(String mode) {
        return "stream".equals(mode) ? streamQueue("q", SETTINGS, group("g", "c1")) : queue("q", SETTINGS);
    }

    private static NewMessage request(String id, ReplyInbox.Request request) {
        return new NewMessage(id, "question".getBytes(), Map.of(ReplyTo.HEADER, request.to().header()), 0);
    }

    private Delivery claimOne(ReliableQueue queue) {
        List<Delivery> claimed = queue.claim(1);
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    private static Reply answer(ReplyTo to, String body) {
        return new Reply(to.correlationId(), body.getBytes(), Map.of("status", "ok", "attempt", 2), null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "stream"})
    void theAckOfACurrentLeaseRepliesOnceAndAStaleOneNot(String mode) throws Exception {
        ReliableQueue queue = queue(mode);
        try (ReplyInbox inbox = new ReplyInbox(gateway, "rr", "q")) {
            ReplyInbox.Request request = inbox.expect(Duration.ofSeconds(30));
            queue.enqueue(request("m1", request));
            Delivery current = claimOne(queue);
            Lease stale = new Lease(current.lease().messageId(), current.lease().ref(), "7");
            ReplyTo to = ReplyTo.of(current.headers());
            assertThat(to).isEqualTo(request.to());

            assertThat(RedisGateway.await(queue.handOffAsync(stale, List.of(), to, answer(to, "stale"))))
                    .isEqualTo(Settled.REFUSED);
            assertThat(RedisGateway.await(queue.handOffAsync(current.lease(), List.of(), to, answer(to, "result"))))
                    .isEqualTo(Settled.ACKED);

            Reply reply = request.reply().get(10, TimeUnit.SECONDS);
            assertThat(new String(reply.body())).isEqualTo("result");
            assertThat(reply.headers()).containsEntry("status", "ok").containsEntry("attempt", 2);
            assertThat(RedisProcess.keys(raw, "rr:{q}:reply:*")).as("the one reply was taken, nothing else came").isEmpty();
            assertThat(counts(queue)).isEqualTo(new QueueStats(0, 0, 0, 0));
        }
    }

    @Test
    void aReplyAfterTheTimeoutIsDroppedAndTheNextRequestStillGetsItsOwn() throws Exception {
        ReliableQueue queue = queue("list");
        try (ReplyInbox inbox = new ReplyInbox(gateway, "rr", "q")) {
            ReplyInbox.Request late = inbox.expect(Duration.ofMillis(200));
            assertThatThrownBy(() -> late.reply().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            RedisGateway.await(queue.replyAsync(late.to(), answer(late.to(), "too late")));
            await().atMost(Duration.ofSeconds(10)).until(() -> RedisProcess.keys(raw, "rr:{q}:reply:*").isEmpty());

            ReplyInbox.Request next = inbox.expect(Duration.ofSeconds(30));
            RedisGateway.await(queue.replyAsync(next.to(), Reply.failed(next.to().correlationId(), "dead-lettered")));
            assertThat(next.reply().get(10, TimeUnit.SECONDS).error()).isEqualTo("dead-lettered");
        }
    }

    @Test
    void aReplyAddressTheComponentDidNotWriteIsRefused() {
        assertThat(ReplyTo.of(Map.of())).isNull();
        assertThatThrownBy(() -> ReplyTo.of(Map.of(ReplyTo.HEADER, "inbox corr")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ReplyTo.HEADER);
        assertThatThrownBy(() -> ReplyTo.of(Map.of(ReplyTo.HEADER, "../other}:key corr 1000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inbox");
    }

    @Test
    void aShardRepliesIntoTheInboxOfItsQueue() {
        assertThat(QueueNames.replyKey("rr", QueueNames.shard("orders", 3), "abc"))
                .isEqualTo(QueueNames.replyKey("rr", "orders", "abc")).isEqualTo("rr:{orders}:reply:abc");
    }
}
