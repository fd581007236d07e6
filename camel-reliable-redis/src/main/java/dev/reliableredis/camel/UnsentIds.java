package dev.reliableredis.camel;

import java.util.List;

import dev.reliableredis.queue.MessageIds;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.ReplyInbox;
import org.apache.camel.Exchange;

/**
 * The message ids of an exchange's failed send through one producer, kept as an exchange property (set only when
 * a send fails, so a send that succeeds costs nothing). A send whose reply was lost (a timeout, a reset connection,
 * a failover) may have stored its messages; when Camel's error handler sends the same exchange to the same producer
 * again ({@code CamelRedeliveryCounter} above 0), the messages get the ids of that send, so that those already
 * stored are a no-op instead of stored twice. Only then: a successful send removes the property, so a later send of
 * the exchange (a second {@code .to}, a loop iteration) gets fresh ids, and so does a split part, another exchange,
 * as the contract says (absent a deduplication id, every send enqueues). The same holds for the ids that
 * exactlyOnce derives ({@link HeldSends#nextId}) for a send that goes out at once: a redelivery takes no new one.
 *
 * @param exchangeId the exchange whose send this was: a copy of the exchange (a split part carries its parent's
 *                   properties) does not reuse them
 * @param ids        the ids of the send's messages, in order
 * @param request    for a request whose id was not the application's deduplication id, its wait for a reply, else
 *                   null: a request the lost send stored replies to it, so its redelivery (a no-op then) waits on
 *                   it, within the first send's requestTimeout
 */
record UnsentIds(String exchangeId, List<String> ids, ReplyInbox.Request request) {

    static final String PROPERTY_PREFIX = "CamelReliableRedisUnsentIds:";
    private static final UnsentIds NONE = new UnsentIds("", List.of(), null);

    /**
     * The ids to reuse for a send of {@code count} messages: those of this exchange's earlier send to the producer
     * when this is its redelivery with as many messages, else none.
     */
    static UnsentIds reusable(Exchange exchange, String property, int count) {
        if (exchange.getMessage().getHeader(Exchange.REDELIVERY_COUNTER, 0, Integer.class) > 0
            && exchange.getProperty(property) instanceof UnsentIds unsent
            && unsent.exchangeId.equals(exchange.getExchangeId()) && unsent.ids.size() == count) {
            return unsent;
        }
        return NONE;
    }

    static UnsentIds of(Exchange exchange, List<NewMessage> messages, ReplyInbox.Request request) {
        return new UnsentIds(exchange.getExchangeId(), messages.stream().map(NewMessage::id).toList(), request);
    }

    /** Whether these are the ids of an earlier send: this send is its redelivery. */
    boolean redelivery() {
        return this != NONE;
    }

    /** The id the earlier send gave message {@code index}, or a fresh one. */
    String generatedId(int index) {
        return index < ids.size() ? ids.get(index) : MessageIds.newId();
    }
}
