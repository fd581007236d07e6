package dev.reliableredis.camel;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.reliableredis.queue.HeaderCodec;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.ReliableQueue;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.support.DefaultProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enqueues the exchange's message (idempotently on {@link ReliableRedisConstants#DEDUPLICATION_ID} when it is
 * set), or runs the queue operation named by
 * {@link ReliableRedisConstants#OPERATION}. A send that Redis did not accept fails the exchange.
 */
public class ReliableRedisProducer extends DefaultProducer {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisProducer.class);

    public ReliableRedisProducer(ReliableRedisEndpoint endpoint) {
        super(endpoint);
    }

    @Override
    public ReliableRedisEndpoint getEndpoint() {
        return (ReliableRedisEndpoint) super.getEndpoint();
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Message message = exchange.getMessage();
        ReliableQueue queue = getEndpoint().queue();
        String operation = message.getHeader(ReliableRedisConstants.OPERATION, "enqueue", String.class);
        switch (operation) {
            case "enqueue" -> enqueue(queue, exchange);
            case "stats" -> message.setBody(queue.stats().toMap());
            case "redrive" -> message.setBody(queue.redrive(
                    message.getHeader(ReliableRedisConstants.LIMIT, Long.MAX_VALUE, Long.class)));
            case "purge" -> message.setBody(queue.purge());
            default -> throw new IllegalArgumentException(ReliableRedisConstants.OPERATION + " '" + operation
                    + "' is not one of enqueue, stats, redrive, purge (queue '" + queue.name() + "')");
        }
    }

    private void enqueue(ReliableQueue queue, Exchange exchange) throws Exception {
        Message message = exchange.getMessage();
        String id = message.getHeader(ReliableRedisConstants.DEDUPLICATION_ID, String.class);
        if (id == null || id.isEmpty()) {
            id = UUID.randomUUID().toString();
        }
        byte[] body = message.getBody() == null ? new byte[0] : message.getMandatoryBody(byte[].class);
        long delay = message.getHeader(ReliableRedisConstants.DELAY, 0L, Long.class);
        boolean stored = queue.enqueue(new NewMessage(id, body, travellingHeaders(exchange), delay));
        if (!stored) {
            LOG.info("Message '{}' is already known to queue '{}' (queued, delayed, in flight, dead, or acked within "
                     + "the idempotency window): the send was a no-op", id, queue.name());
        }
        message.setHeader(ReliableRedisConstants.MESSAGE_ID, id);
        message.setHeader(ReliableRedisConstants.ENQUEUED, stored);
    }

    @Override
    public String toString() {
        return "ReliableRedisProducer[" + getEndpoint().getQueueName() + "]";
    }

    private Map<String, Object> travellingHeaders(Exchange exchange) {
        HeaderFilterStrategy filter = getEndpoint().getHeaderFilterStrategy();
        Map<String, Object> headers = new LinkedHashMap<>();
        exchange.getMessage().getHeaders().forEach((name, value) -> {
            if (filter.applyFilterToCamelHeaders(name, value, exchange)) {
                return;
            }
            if (HeaderCodec.isSupported(value)) {
                headers.put(name, value);
            } else {
                LOG.debug("Header '{}' of type {} does not travel: only String, Integer, Long, Double, Boolean "
                          + "and byte[] values do", name, value == null ? "null" : value.getClass().getName());
            }
        });
        return headers;
    }
}
