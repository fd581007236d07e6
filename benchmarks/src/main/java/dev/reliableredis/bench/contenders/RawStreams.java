package dev.reliableredis.bench.contenders;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import io.lettuce.core.Consumer;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * Raw Redis Streams with a consumer group and none of the component's reliability extras: producers XADD
 * (pipelined, 100 in flight), consumers XREADGROUP up to perPoll entries and XACK them in one call.
 */
public final class RawStreams extends RawRedisContender {

    private static final byte[] KEY = "bench:stream".getBytes();
    private static final byte[] GROUP = "bench".getBytes();
    private static final byte[] FIELD = "body".getBytes();
    private static final int PIPELINE = 100;

    public RawStreams(Spec spec) {
        super(spec);
        producer.sync().xgroupCreate(XReadArgs.StreamOffset.from(KEY, "0"), GROUP, XGroupCreateArgs.Builder.mkstream());
    }

    @Override
    public void startConsumers(Ledger ledger) {
        startWorkers("streams", (redis, worker) -> {
            List<StreamMessage<byte[], byte[]>> entries = redis.xreadgroup(
                    Consumer.from(GROUP, ("c" + worker).getBytes()),
                    XReadArgs.Builder.count(spec.perPoll()).block(1000), XReadArgs.StreamOffset.lastConsumed(KEY));
            if (entries.isEmpty()) {
                return;
            }
            String[] ids = new String[entries.size()];
            for (int i = 0; i < ids.length; i++) {
                // the body map is keyed by byte[]: its one value is the body
                ledger.received(Bodies.index(entries.get(i).getBody().values().iterator().next()));
                ids[i] = entries.get(i).getId();
            }
            redis.xack(KEY, GROUP, ids);
        });
    }

    @Override
    public void produce(int from, int to) {
        RedisAsyncCommands<byte[], byte[]> redis = producer.async();
        List<RedisFuture<String>> sent = new ArrayList<>(PIPELINE);
        for (int i = from; i < to; i++) {
            sent.add(redis.xadd(KEY, FIELD, Bodies.of(i)));
            if (sent.size() == PIPELINE || i == to - 1) {
                LettuceFutures.awaitAll(producer.getTimeout(), sent.toArray(RedisFuture[]::new));
                sent.clear();
            }
        }
    }

    /** Does not wait for the reply: Lettuce pipelines the sends, so paced sends keep their schedule. */
    @Override
    public void sendOne(int index) {
        producer.async().xadd(KEY, FIELD, Bodies.of(index));
    }

    @Override
    public void awaitSettled() {
        while (producer.sync().xpending(KEY, GROUP).getCount() > 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }
}
