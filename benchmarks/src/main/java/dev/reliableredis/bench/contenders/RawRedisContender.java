package dev.reliableredis.bench.contenders;

import java.util.ArrayList;
import java.util.List;

import dev.reliableredis.bench.Contender;
import dev.reliableredis.bench.Spec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/** A contender written straight against Lettuce: one producer connection, one connection per consumer thread. */
abstract class RawRedisContender implements Contender {

    interface Turn {
        /** One turn of a consumer thread on its own connection. */
        void run(RedisCommands<byte[], byte[]> redis, int worker) throws Exception;
    }

    final Spec spec;
    final RedisClient client;
    final StatefulRedisConnection<byte[], byte[]> producer;
    private final List<StatefulRedisConnection<byte[], byte[]>> consumerConnections = new ArrayList<>();
    private final Workers workers = new Workers();

    RawRedisContender(Spec spec) {
        this.spec = spec;
        client = RedisClient.create(spec.redisUri());
        producer = client.connect(ByteArrayCodec.INSTANCE);
    }

    /** Starts spec.consumers() threads, each repeating the turn on a connection of its own. */
    void startWorkers(String name, Turn turn) {
        List<RedisCommands<byte[], byte[]>> commands = new ArrayList<>();
        for (int i = 0; i < spec.consumers(); i++) {
            StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
            consumerConnections.add(connection);
            commands.add(connection.sync());
        }
        workers.start(name, spec.consumers(), worker -> turn.run(commands.get(worker), worker));
    }

    @Override
    public void close() throws Exception {
        workers.stop();
        consumerConnections.forEach(StatefulRedisConnection::close);
        producer.close();
        client.shutdown();
    }
}
