package dev.reliableredis.queue.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.reliableredis.queue.ArrivalWaiter;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.RedisGateway;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulConnection;

import static dev.reliableredis.queue.RedisBytes.bytes;
import static dev.reliableredis.queue.RedisBytes.text;

/**
 * Waits for new stream entries with a blocking XREADGROUP on a connection of its own, so that entries written by
 * any program (not only this component) wake the consumer at once. The block is at most one second, which
 * bounds how long a stopping consumer waits for it, and at most half the command timeout: a client that gave up
 * on a read Redis still serves would lose the entries it delivers into this consumer's pending list.
 */
final class BlockingReadWaiter implements ArrivalWaiter {

    private static final Duration MAX_BLOCK = Duration.ofSeconds(1);

    /** An entry as XREADGROUP returns it. */
    record Entry(String id, Map<String, byte[]> fields) {
    }

    private final RedisGateway gateway;
    private final byte[] stream;
    private final StreamOptions options;
    private final Function<Entry, Delivery> toDelivery;
    private StatefulConnection<byte[], byte[]> connection;

    BlockingReadWaiter(RedisGateway gateway, byte[] stream, StreamOptions options, Function<Entry, Delivery> toDelivery) {
        this.gateway = gateway;
        this.stream = stream;
        this.options = options;
        this.toDelivery = toDelivery;
    }

    @Override
    public long mark() {
        return 0;
    }

    @Override
    public List<Delivery> await(long mark, int maxMessages, Duration max) {
        Duration block = shortest(max, MAX_BLOCK, gateway.commandTimeout().dividedBy(2));
        if (connection == null) {
            connection = gateway.connectDedicated(block.plus(Duration.ofSeconds(10)));
        }
        List<StreamMessage<byte[], byte[]>> read = RedisGateway.sync(connection).xreadgroup(
                Consumer.from(bytes(options.group()), bytes(options.consumerName())),
                XReadArgs.Builder.count(maxMessages).block(block), XReadArgs.StreamOffset.lastConsumed(stream));
        List<Delivery> deliveries = new ArrayList<>(read.size());
        for (StreamMessage<byte[], byte[]> message : read) {
            Map<String, byte[]> fields = new LinkedHashMap<>();
            message.getBody().forEach((name, value) -> fields.put(text(name), value));
            deliveries.add(toDelivery.apply(new Entry(message.getId(), fields)));
        }
        return deliveries;
    }

    private static Duration shortest(Duration... durations) {
        Duration shortest = durations[0];
        for (Duration d : durations) {
            shortest = d.compareTo(shortest) < 0 ? d : shortest;
        }
        return shortest.isZero() ? Duration.ofMillis(1) : shortest;
    }

    @Override
    public void wakeUp() {
        // a blocking read cannot be cut short; it ends within MAX_BLOCK
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.closeAsync();
            connection = null;
        }
    }
}
