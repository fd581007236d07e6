package dev.reliableredis.camel;

import java.time.Duration;
import java.util.Map;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.ReplyTo;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * What a send takes from one Camel message, read from it in one pass: its body, its deduplication id, the headers
 * that travel (as the endpoint's header filter lets them out) and the options this component's headers set. Every
 * path of the producer (a plain send, a held one, a request, each element of a List body) makes its
 * {@link NewMessage} from one, so a send reads, checks and filters each header of a message once.
 *
 * @param deduplicationId the message's {@link ReliableRedisConstants#DEDUPLICATION_ID}, null when it has none
 * @param headers         the travelling headers, this message's own map: a request adds its inbox to it
 */
record OutgoingMessage(Object body, String deduplicationId, Map<String, Object> headers, long delay, String shardKey,
        long timeToLive, int priority, String groupId) {

    /** The exchange's message: its headers' options, else the endpoint's timeToLive and the defaults. */
    static OutgoingMessage of(ReliableRedisEndpoint endpoint, Exchange exchange) {
        OutgoingMessage defaults = new OutgoingMessage(null, null, Map.of(), 0, null,
                endpoint.getConfiguration().getTimeToLive(), NewMessage.DEFAULT_PRIORITY, null);
        return read(endpoint, exchange, exchange.getMessage(), defaults);
    }

    /**
     * An element of this message's List body: an element that is a Camel Message brings its own body, headers, delay
     * and deduplication id, and this message's shard key, time to live, priority and group where it has none; any
     * other element is a body, sent with this message's headers and options and no id of its own.
     */
    OutgoingMessage element(ReliableRedisEndpoint endpoint, Exchange exchange, Object element) {
        if (element instanceof Message message) {
            return read(endpoint, exchange, message, this);
        }
        return new OutgoingMessage(element, null, headers, delay, shardKey, timeToLive, priority, groupId);
    }

    /** The message to enqueue under the id, its body converted to bytes (none for a null body). */
    NewMessage toNewMessage(Exchange exchange, String id) throws Exception {
        return newMessage(exchange, id, timeToLive);
    }

    /**
     * The request this message is (requestReply): it carries the requester's inbox, and lives no longer than the
     * requester waits, as a request that outlives the wait for its reply would run for nothing.
     */
    NewMessage toRequest(Exchange exchange, String id, ReplyTo replyTo, Duration timeout) throws Exception {
        headers.put(ReplyTo.HEADER, replyTo.header());
        long wait = timeout.toMillis();
        return newMessage(exchange, id, timeToLive > 0 ? Math.min(timeToLive, wait) : wait);
    }

    private NewMessage newMessage(Exchange exchange, String id, long timeToLive) throws Exception {
        byte[] bytes = body == null ? new byte[0]
                : exchange.getContext().getTypeConverter().mandatoryConvertTo(byte[].class, exchange, body);
        return new NewMessage(id, bytes, headers, delay, shardKey == null || shardKey.isEmpty() ? null : shardKey,
                timeToLive, priority, groupId);
    }

    /**
     * Reads the message's headers, each once, checking them in this order: delay, time to live, priority. The delay
     * is the message's own: an element of a List body does not take the exchange's (docs/guide/sending.md).
     */
    private static OutgoingMessage read(ReliableRedisEndpoint endpoint, Exchange exchange, Message message,
            OutgoingMessage fallback) {
        String deduplicationId = message.getHeader(ReliableRedisConstants.DEDUPLICATION_ID, String.class);
        Map<String, Object> headers = endpoint.travellingHeaders(exchange, message);
        long delay = MillisHeader.read(message, ReliableRedisConstants.DELAY, 0, NewMessage.MAX_DELAY_MS,
                endpoint.getQueueName());
        String shardKey = message.getHeader(ReliableRedisConstants.SHARD_KEY, fallback.shardKey, String.class);
        long timeToLive = MillisHeader.read(message, ReliableRedisConstants.TIME_TO_LIVE, fallback.timeToLive,
                NewMessage.MAX_TIME_TO_LIVE_MS, endpoint.getQueueName());
        int priority = priority(exchange, message, fallback.priority);
        String groupId = message.getHeader(ReliableRedisConstants.GROUP_ID, fallback.groupId, String.class);
        return new OutgoingMessage(message.getBody(), deduplicationId, headers, delay, shardKey, timeToLive, priority,
                groupId);
    }

    /** The message's CamelReliableRedisPriority, checked, else the fallback (the exchange's, or the default). */
    private static int priority(Exchange exchange, Message message, int fallback) {
        Object value = message.getHeader(ReliableRedisConstants.PRIORITY);
        Integer priority = value == null ? Integer.valueOf(fallback)
                : exchange.getContext().getTypeConverter().convertTo(Integer.class, exchange, value);
        if (priority == null || priority < 0 || priority > 9) {
            throw new IllegalArgumentException(ReliableRedisConstants.PRIORITY + " must be 0 (lowest) to 9 (highest), "
                    + "was " + value);
        }
        return priority;
    }
}
