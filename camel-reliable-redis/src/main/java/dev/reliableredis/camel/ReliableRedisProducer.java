package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeoutException;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.QueueSchedules;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Reply;
import dev.reliableredis.queue.ReplyInbox;
import dev.reliableredis.queue.redis.OneLine;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeTimedOutException;
import org.apache.camel.Message;
import org.apache.camel.TypeConversionException;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.WritableHealthCheckRepository;
import org.apache.camel.support.DefaultAsyncProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enqueues the exchange's message (idempotently on {@link ReliableRedisConstants#DEDUPLICATION_ID} when it is
 * set), or, for a {@link List} body, every element as a message of its own; or runs the queue operation named by
 * {@link ReliableRedisConstants#OPERATION}. Enqueues are asynchronous: the endpoint's {@link Enqueuer} groups the
 * sends of all threads into one script call per round trip, and the exchange continues when its messages are stored.
 * A send that Redis did not accept fails the exchange. With exactlyOnce, a send of an exchange that came from a
 * reliable-redis consumer is held instead, for the ack of the consumed message to enqueue (see {@link HeldSends}).
 * With requestReply, the exchange continues when the consumer's reply comes to this producer's {@link ReplyInbox}.
 */
public class ReliableRedisProducer extends DefaultAsyncProducer {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisProducer.class);

    private Enqueuer enqueuer;
    /** With requestReply: where this producer's replies come, and the pool its exchanges go on from. */
    private ReplyInbox inbox;
    private ExecutorService replies;
    /** Where an exchange keeps the ids of its failed send through this producer until a send succeeds. */
    private final String unsentIdsProperty;
    private WritableHealthCheckRepository healthChecks;
    private ReliableRedisProducerHealthCheck healthCheck;
    /** Whether the one INFO on exactlyOnce sends that cannot be held was logged. */
    private volatile boolean fallbackLogged;

    public ReliableRedisProducer(ReliableRedisEndpoint endpoint) {
        super(endpoint);
        // named by this producer, not by the URI, which may hold a password
        this.unsentIdsProperty = UnsentIds.PROPERTY_PREFIX + endpoint.getQueueName() + "@"
                                 + Integer.toHexString(System.identityHashCode(this));
    }

    @Override
    public ReliableRedisEndpoint getEndpoint() {
        return (ReliableRedisEndpoint) super.getEndpoint();
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        enqueuer = getEndpoint().enqueuer();
        if (getEndpoint().getConfiguration().isRequestReply()) {
            inbox = getEndpoint().replyInbox();
            replies = getEndpoint().getCamelContext().getExecutorServiceManager()
                    .newDefaultThreadPool(this, "ReliableRedisReplies[" + getEndpoint().getQueueName() + "]");
        }
        // health checks are optional: only when the application has a health check registry
        healthChecks = HealthCheckHelper.getHealthCheckRepository(getEndpoint().getCamelContext(), "producers",
                WritableHealthCheckRepository.class);
        if (healthChecks != null) {
            healthCheck = new ReliableRedisProducerHealthCheck(getEndpoint(), getEndpoint().getId());
            healthCheck.setEnabled(getEndpoint().getComponent().isHealthCheckProducerEnabled());
            healthChecks.addHealthCheck(healthCheck);
        }
    }

    @Override
    protected void doStop() throws Exception {
        if (inbox != null) {
            inbox.close();
            inbox = null;
            getEndpoint().getCamelContext().getExecutorServiceManager().shutdown(replies);
            replies = null;
        }
        if (healthChecks != null && healthCheck != null) {
            healthChecks.removeHealthCheck(healthCheck);
            healthCheck = null;
        }
        super.doStop();
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        Message message = exchange.getMessage();
        ReliableQueue queue = getEndpoint().queue();
        try {
            String operation = message.getHeader(ReliableRedisConstants.OPERATION, "enqueue", String.class);
            checkShardCount();
            switch (operation) {
                case "enqueue" -> {
                    return enqueue(queue, exchange, callback);
                }
                case "reshard" -> message.setBody(reshard(queue, message));
                // admin operations are rare and may take many calls: they run on the caller's thread
                case "stats" -> message.setBody(queue.statsWithSchedule());
                case "redrive" -> message.setBody(queue.redrive(redriveLimit(queue, message)));
                case "purge" -> message.setBody(queue.purge());
                case "pause" -> message.setBody(pause(queue, message));
                case "resume" -> message.setBody(queue.resume());
                // a sharded queue has no schedule: there is none to remove
                case "unschedule" -> message.setBody(queue instanceof QueueSchedules schedules
                                                     && schedules.unschedule());
                default -> throw new IllegalArgumentException(ReliableRedisConstants.OPERATION + " '" + operation
                        + "' is not one of enqueue, stats, redrive, purge, pause, resume, reshard, unschedule (queue '"
                        + queue.name() + "')");
            }
        } catch (Exception e) {
            exchange.setException(e);
        }
        callback.done(true);
        return true;
    }

    /**
     * The most dead letters a redrive moves: all without the header; a value that is no whole number (NaN, "ten")
     * fails the exchange naming the header, where Camel's conversion would hand on null or its own error.
     */
    private static long redriveLimit(ReliableQueue queue, Message message) {
        Object value = message.getHeader(ReliableRedisConstants.LIMIT);
        if (value == null) {
            return Long.MAX_VALUE;
        }
        Long limit = null;
        try {
            limit = message.getHeader(ReliableRedisConstants.LIMIT, Long.class);
        } catch (TypeConversionException notANumber) {
            // refused below, with the header's name
        }
        if (limit == null) {
            throw new IllegalArgumentException(ReliableRedisConstants.LIMIT + " '" + OneLine.of(String.valueOf(value))
                    + "' is not a whole number: the most dead letters the redrive of queue '" + queue.name()
                    + "' moves");
        }
        return limit;
    }

    /**
     * Refuses a send when Redis records another shard count for the queue. When Redis does not answer the check, the
     * operation goes on, to fail with its own error (or to land, with the check made again on the next send).
     */
    private void checkShardCount() {
        try {
            getEndpoint().checkShardCount();
        } catch (QueueException redisFailed) {
            LOG.debug("The shard count of queue '{}' was not checked: {}", getEndpoint().getQueueName(),
                    OneLine.of(redisFailed.getMessage()));
        }
    }

    /** Pauses the queue for the header's duration (until resumed when absent); returns the duration in ms. */
    private long pause(ReliableQueue queue, Message message) {
        long millis = MillisHeader.read(message, ReliableRedisConstants.PAUSE_DURATION, 0,
                ReliableQueue.MAX_PAUSE.toMillis(), getEndpoint().getQueueName());
        queue.pause(Duration.ofMillis(millis));
        return millis;
    }

    /** Records the queue's new shard count; returns it. */
    private int reshard(ReliableQueue queue, Message message) {
        Integer shards = message.getHeader(ReliableRedisConstants.SHARDS, Integer.class);
        if (shards == null) {
            throw new IllegalArgumentException("reshard of queue '" + queue.name() + "' needs the header "
                    + ReliableRedisConstants.SHARDS + ", the new shard count");
        }
        getEndpoint().shardCount().reshard(shards);
        return shards;
    }

    /** The ids of a send: from the exchange's deduplication id, derived from the consumed message's, or generated. */
    private record SendIds(boolean batch, String deduplicationId, boolean own, UnsentIds unsent, HeldSends held) {

        /** Whether the send's id is one this producer made (generated, or reused from the lost attempt). */
        boolean generated() {
            return deduplicationId == null || deduplicationId.isEmpty();
        }
    }

    /**
     * An enqueue, by its path: a request (requestReply), a send held for the ack of the consumed message
     * (exactlyOnce, when it can be held), or a plain send.
     */
    private boolean enqueue(ReliableQueue queue, Exchange exchange, AsyncCallback callback) throws Exception {
        OutgoingMessage outgoing = OutgoingMessage.of(getEndpoint(), exchange);
        if (inbox != null && outgoing.body() instanceof List<?>) {
            throw new IllegalArgumentException("requestReply sends one request per exchange, but the body of the "
                    + "exchange to queue '" + queue.name() + "' is a List");
        }
        SendIds ids = sendIds(queue, exchange, outgoing);
        if (inbox != null) {
            return request(queue, exchange, callback, outgoing, ids);
        }
        List<NewMessage> messages = ids.batch() ? elements(exchange, outgoing, ids)
                : List.of(outgoing.toNewMessage(exchange, idOrGenerated(ids.deduplicationId(), ids.unsent(), 0)));
        checkStreamMode(queue, messages);
        if (ids.held() != null && hold(ids.held(), queue, messages)) {
            List<String> heldIds = messages.stream().map(NewMessage::id).toList();
            exchange.getMessage().setHeader(ReliableRedisConstants.MESSAGE_ID, ids.batch() ? heldIds : heldIds.get(0));
            callback.done(true);
            return true;
        }
        return send(queue, exchange, callback, messages, ids);
    }

    private SendIds sendIds(ReliableQueue queue, Exchange exchange, OutgoingMessage outgoing) {
        boolean batch = outgoing.body() instanceof List<?>;
        HeldSends held = getEndpoint().getConfiguration().isExactlyOnce() ? HeldSends.of(exchange) : null;
        String deduplicationId = outgoing.deduplicationId();
        boolean own = deduplicationId != null && !deduplicationId.isEmpty();
        UnsentIds unsent = UnsentIds.reusable(exchange, unsentIdsProperty,
                batch ? ((List<?>) outgoing.body()).size() : 1);
        // a redelivery reuses the derived ids of its failed send too, so that the next send takes the next one
        if (held != null && !own && !unsent.redelivery()) {
            deduplicationId = held.nextId(exchange, queue.name());
        }
        return new SendIds(batch, deduplicationId, own, unsent, held);
    }

    /** A plain send, or one that could not be held: the exchange goes on once Redis stored its messages. */
    private boolean send(ReliableQueue queue, Exchange exchange, AsyncCallback callback, List<NewMessage> messages,
            SendIds ids) {
        if (getEndpoint().getConfiguration().isSynchronous()) {
            sent(queue, exchange, ids.batch(), messages, sendAndWait(exchange, messages, null, ids.own()));
            callback.done(true);
            return true;
        }
        enqueuer.send(messages, (enqueued, error) -> {
            if (error != null) {
                failed(exchange, messages, null, ids.own(), error);
            } else {
                sent(queue, exchange, ids.batch(), messages, enqueued);
            }
            callback.done(false);
        });
        return false;
    }

    /**
     * A request (requestReply): one message that carries its inbox, never held (its reply would wait for the ack
     * that waits for the route that waits for it); the exchange goes on with the reply, or fails at its timeout.
     */
    private boolean request(ReliableQueue queue, Exchange exchange, AsyncCallback callback, OutgoingMessage outgoing,
            SendIds ids) throws Exception {
        boolean resent = !ids.own() && ids.unsent().request() != null;
        // a no-op for a fresh random id, or for the id of this send's lost attempt, is this send's own request, stored
        // by Lettuce sending the call again after a lost connection, or by the lost attempt: its reply comes
        boolean ownRequest = resent || ids.generated();
        ReplyInbox.Request request = resent ? ids.unsent().request() : inbox.expect(requestTimeout());
        List<NewMessage> messages;
        try {
            messages = List.of(outgoing.toRequest(exchange, idOrGenerated(ids.deduplicationId(), ids.unsent(), 0),
                    request.to(), requestTimeout()));
            checkStreamMode(queue, messages);
        } catch (Exception e) {
            // a kept request may still get the reply to what the lost send stored; its timeout ends its wait
            if (!resent) {
                forget(request);
            }
            throw e;
        }
        String id = messages.get(0).id();
        if (getEndpoint().getConfiguration().isSynchronous()) {
            List<Boolean> enqueued = sendAndWait(exchange, messages, request, ids.own());
            sent(queue, exchange, false, messages, enqueued);
            if (requestStored(exchange, queue, request, id, enqueued.get(0) || ownRequest)) {
                CompletableFuture<Reply> reply = request.reply();
                Throwable failed = reply.handle((done, error) -> error).join();
                replied(exchange, queue, id, failed, failed == null ? reply.join() : null);
            }
            callback.done(true);
            return true;
        }
        enqueuer.send(messages, (enqueued, error) -> {
            if (error != null) {
                failed(exchange, messages, request, ids.own(), error);
            } else {
                sent(queue, exchange, false, messages, enqueued);
                if (requestStored(exchange, queue, request, id, enqueued.get(0) || ownRequest)) {
                    // the rest of the route runs on the reply pool, not on the inbox's reader or a timer thread
                    request.reply().whenCompleteAsync((reply, failed) -> {
                        replied(exchange, queue, id, failed, reply);
                        callback.done(false);
                    }, replies);
                    return;
                }
            }
            callback.done(false);
        });
        return false;
    }

    /** Sends on the caller's thread (synchronous=true); a send that did not reach Redis keeps its ids and throws. */
    private List<Boolean> sendAndWait(Exchange exchange, List<NewMessage> messages, ReplyInbox.Request request,
            boolean own) {
        try {
            return enqueuer.sendAndWait(messages);
        } catch (RuntimeException e) {
            keepUnsent(exchange, messages, request, own);
            throw e;
        }
    }

    /** A send that did not reach Redis: its ids kept for the redelivery, and the exchange failed with the cause. */
    private void failed(Exchange exchange, List<NewMessage> messages, ReplyInbox.Request request, boolean own,
            Throwable error) {
        keepUnsent(exchange, messages, request, own);
        exchange.setException(error instanceof CompletionException wrapped ? wrapped.getCause() : error);
    }

    /** Refuses what stream mode cannot do; here, not by the queue: sends of other exchanges may share its call. */
    private void checkStreamMode(ReliableQueue queue, List<NewMessage> messages) {
        if (!getEndpoint().getConfiguration().isStreamMode()) {
            return;
        }
        if (messages.stream().anyMatch(m -> m.priority() != NewMessage.DEFAULT_PRIORITY)) {
            throw new IllegalArgumentException(ReliableRedisConstants.PRIORITY + " is set, but stream-mode queue '"
                    + queue.name() + "' delivers in the order of its stream, without priorities");
        }
        if (messages.stream().anyMatch(m -> m.groupId() != null)) {
            throw new IllegalArgumentException(ReliableRedisConstants.GROUP_ID + " is set, but stream-mode queue '"
                    + queue.name() + "' has no message groups: its consumer group reads the stream in one order "
                    + "for all");
        }
    }

    private Duration requestTimeout() {
        return Duration.ofMillis(getEndpoint().getConfiguration().getRequestTimeout());
    }

    private void forget(ReplyInbox.Request request) {
        if (request != null) {
            inbox.forget(request);
        }
    }

    /**
     * Whether the request was stored, to wait for its reply. A send that was a no-op (the queue knows its id
     * already) gets no reply: the exchange fails at once; but not the redelivery of a send whose reply was lost,
     * which waits for the reply to the request that send stored.
     */
    private boolean requestStored(Exchange exchange, ReliableQueue queue, ReplyInbox.Request request, String id,
            boolean enqueued) {
        if (enqueued) {
            return true;
        }
        forget(request);
        exchange.setException(new RequestFailedException("Request '" + id + "' to queue '" + queue.name() + "' has "
                + "the id of a message the queue knows already: it was not sent, and no reply comes", exchange));
        return false;
    }

    /** Makes the reply the exchange's message, or fails the exchange with the error reply or the timeout. */
    private void replied(Exchange exchange, ReliableQueue queue, String id, Throwable failed, Reply reply) {
        Throwable cause = failed instanceof CompletionException wrapped ? wrapped.getCause() : failed;
        if (cause instanceof TimeoutException) {
            exchange.setException(new ExchangeTimedOutException(exchange, requestTimeout().toMillis(),
                    "No reply to request '" + id + "' from queue '" + queue.name() + "' within requestTimeout ("
                    + requestTimeout().toMillis() + " ms)"));
        } else if (cause != null) {
            exchange.setException(cause);
        } else if (reply.isError()) {
            exchange.setException(new RequestFailedException(reply.error(), exchange));
        } else {
            getEndpoint().fillIn(exchange, reply);
        }
    }

    /**
     * Holds the messages, to be enqueued by the ack of the consumed message; false when this queue cannot be handed
     * off to, or the consumed message has settled already: then the send goes out at once, under the derived ids.
     */
    private boolean hold(HeldSends held, ReliableQueue queue, List<NewMessage> messages) {
        if (!held.canHold(queue)) {
            held.requireSameSlotGroup(queue, getEndpoint().getConfiguration().getSlotGroup());
            if (!fallbackLogged) {
                fallbackLogged = true;
                LOG.info("exactlyOnce: sends to queue '{}' are enqueued at once, under ids derived from the consumed "
                         + "message's, so each is enqueued once within the idempotency window: it is not an unsharded "
                         + "queue of the mode, Redis and slot of the queue they were consumed from", queue.name());
            }
            return false;
        }
        if (!held.hold(queue, messages)) {
            LOG.debug("exactlyOnce: the message the exchange came from has settled already; the send to queue '{}' "
                      + "is enqueued at once, under its derived ids", queue.name());
            return false;
        }
        return true;
    }

    /**
     * A failed send's ids, for the error handler's redelivery of this exchange (see UnsentIds). A request under an
     * id of the component's keeps waiting for its reply, which comes if the failed send stored it after all; one
     * under the application's deduplication id stops waiting, as its redelivery is refused (see requestStored).
     */
    private void keepUnsent(Exchange exchange, List<NewMessage> messages, ReplyInbox.Request request,
            boolean ownId) {
        ReplyInbox.Request waiting = ownId ? null : request;
        exchange.setProperty(unsentIdsProperty, UnsentIds.of(exchange, messages, waiting));
        if (waiting == null) {
            forget(request);
        }
    }

    private static String idOrGenerated(String deduplicationId, UnsentIds unsent, int index) {
        return deduplicationId != null && !deduplicationId.isEmpty() ? deduplicationId : unsent.generatedId(index);
    }

    private void sent(ReliableQueue queue, Exchange exchange, boolean batch, List<NewMessage> messages,
            List<Boolean> enqueued) {
        exchange.removeProperty(unsentIdsProperty);
        List<String> ids = messages.stream().map(NewMessage::id).toList();
        logNoOps(queue, ids, enqueued);
        exchange.getMessage().setHeader(ReliableRedisConstants.MESSAGE_ID, batch ? ids : ids.get(0));
        exchange.getMessage().setHeader(ReliableRedisConstants.ENQUEUED, batch ? enqueued : enqueued.get(0));
    }

    /**
     * The messages of a List body (see {@link OutgoingMessage#element}). With a deduplication id on the exchange,
     * element i without one of its own gets {@code <id>:<i>}, so sending the same batch again is a no-op.
     */
    private List<NewMessage> elements(Exchange exchange, OutgoingMessage batch, SendIds ids) throws Exception {
        List<?> body = (List<?>) batch.body();
        List<NewMessage> messages = new ArrayList<>(body.size());
        for (int i = 0; i < body.size(); i++) {
            OutgoingMessage element = batch.element(getEndpoint(), exchange, body.get(i));
            String id = element.deduplicationId() != null ? element.deduplicationId()
                    : ids.generated() ? null : ids.deduplicationId() + ":" + i;
            messages.add(element.toNewMessage(exchange, idOrGenerated(id, ids.unsent(), i)));
        }
        return messages;
    }

    private static void logNoOps(ReliableQueue queue, List<String> ids, List<Boolean> enqueued) {
        for (int i = 0; i < ids.size(); i++) {
            if (!enqueued.get(i)) {
                LOG.info("Message '{}' is already known to queue '{}' (queued, delayed, in flight, dead, or acked "
                         + "within the idempotency window): the send was a no-op", OneLine.of(ids.get(i)),
                        queue.name());
            }
        }
    }

    @Override
    public String toString() {
        return "ReliableRedisProducer[" + getEndpoint().getQueueName() + "]";
    }
}
