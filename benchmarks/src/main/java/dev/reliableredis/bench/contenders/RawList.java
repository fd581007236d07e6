package dev.reliableredis.bench.contenders;

import java.util.List;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The ceiling, with no reliability at all: producers RPUSH batches of 100 bodies, consumers LPOP up to perPoll at a
 * time and block in BLPOP when the list is empty. One message at a time, it is the raw hand-off floor: an RPUSH to a
 * consumer blocked in BLPOP.
 */
public final class RawList extends RawRedisContender {

    private static final byte[] KEY = "bench:raw".getBytes();
    private static final int BATCH = 100;

    public RawList(Spec spec) {
        super(spec);
    }

    @Override
    public void startConsumers(Ledger ledger) {
        startWorkers("raw", (redis, worker) -> {
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
}
