package dev.reliableredis.bench.contenders;

import java.util.ArrayList;
import java.util.List;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Contender;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * The ceiling, with no reliability at all: producers RPUSH batches of 100 bodies, consumers LPOP up to perPoll at a
 * time and block in BLPOP when the list is empty. One message at a time, it is the raw hand-off floor: an RPUSH to a
 * consumer blocked in BLPOP.
 */
public final class RawList implements Contender {

    private static final byte[] KEY = "bench:raw".getBytes();
    private static final int BATCH = 100;

    private final Spec spec;
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> producer;
    private final List<StatefulRedisConnection<byte[], byte[]>> consumerConnections = new ArrayList<>();
    private final Workers workers = new Workers();

    public RawList(Spec spec) {
        this.spec = spec;
        client = RedisClient.create(spec.redisUri());
        producer = client.connect(ByteArrayCodec.INSTANCE);
    }

    @Override
    public void startConsumers(Ledger ledger) {
        for (int i = 0; i < spec.consumers(); i++) {
            StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
            consumerConnections.add(connection);
        }
        List<RedisCommands<byte[], byte[]>> commands = consumerConnections.stream().map(StatefulRedisConnection::sync)
                .toList();
        workers.start("raw", spec.consumers(), worker -> {
            RedisCommands<byte[], byte[]> redis = commands.get(worker);
            List<byte[]> bodies = redis.lpop(KEY, spec.perPoll());
            if (bodies.isEmpty()) {
                KeyValue<byte[], byte[]> one = redis.blpop(1, KEY);
                if (one != null) {
                    ledger.received(Bodies.index(one.getValue()));
                }
            } else {
                bodies.forEach(body -> ledger.received(Bodies.index(body)));
            }
        });
    }

    @Override
    public void produce(int from, int to) {
        RedisCommands<byte[], byte[]> redis = producer.sync();
        for (int i = from; i < to; i += BATCH) {
            int end = Math.min(to, i + BATCH);
            byte[][] batch = new byte[end - i][];
            for (int k = i; k < end; k++) {
                batch[k - i] = Bodies.of(k);
            }
            redis.rpush(KEY, batch);
        }
    }

    /** Does not wait for the reply: Lettuce pipelines the sends, so paced sends keep their schedule. */
    @Override
    public void sendOne(int index) {
        producer.async().rpush(KEY, Bodies.of(index));
    }

    @Override
    public void awaitSettled() {
    }

    @Override
    public void close() throws Exception {
        workers.stop();
        consumerConnections.forEach(StatefulRedisConnection::close);
        producer.close();
        client.shutdown();
    }
}
