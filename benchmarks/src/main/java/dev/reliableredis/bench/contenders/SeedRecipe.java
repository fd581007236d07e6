package dev.reliableredis.bench.contenders;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Ledger;
import dev.reliableredis.bench.Spec;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The list recipe the project grew from (shared/seeds), as written: the body itself is the list element; a claim
 * script pops one message into a processing ZSet scored by a client-computed deadline; an ack script removes it
 * and adds it to an acked Set. One script call per message each way. Where the recipe sleeps on an empty queue,
 * this waits 1 ms, so that it is not slowed by the recipe's one-second sleep.
 *
 * <p>With {@code batched}, the same design with the calls batched: a claim takes up to perPoll messages, an ack
 * settles everything a consumer processed in one call.
 */
public class SeedRecipe extends RawRedisContender {

    private static final String CLAIM = """
            local ids = redis.call('LPOP', KEYS[1], tonumber(ARGV[2]))
            if not ids then return {} end
            for _, msg in ipairs(ids) do redis.call('ZADD', KEYS[2], tonumber(ARGV[1]), msg) end
            return ids""";
    private static final String ACK = """
            for i = 1, #ARGV do
              redis.call('ZREM', KEYS[1], ARGV[i])
              redis.call('SADD', KEYS[2], ARGV[i])
            end
            return #ARGV""";
    private static final byte[] READY = "seed:msgs".getBytes();
    private static final byte[] PROCESSING = "seed:processing".getBytes();
    private static final byte[] ACKED = "seed:acked".getBytes();
    private static final long VISIBILITY_MS = 30_000;

    private final int perClaim;
    private String claimSha;
    private String ackSha;

    public SeedRecipe(Spec spec) {
        this(spec, 1);
    }

    protected SeedRecipe(Spec spec, int perClaim) {
        super(spec);
        this.perClaim = perClaim;
    }

    @Override
    public void startConsumers(Ledger ledger) {
        claimSha = producer.sync().scriptLoad(CLAIM);
        ackSha = producer.sync().scriptLoad(ACK);
        startWorkers("seed", (redis, worker) -> {
            long deadline = System.currentTimeMillis() + VISIBILITY_MS;
            List<byte[]> claimed = redis.evalsha(claimSha, ScriptOutputType.MULTI, new byte[][] {READY, PROCESSING},
                    Long.toString(deadline).getBytes(), Integer.toString(perClaim).getBytes());
            if (claimed.isEmpty()) {
                LockSupport.parkNanos(1_000_000);
                return;
            }
            for (byte[] body : claimed) {
                ledger.received(Bodies.index(body));
            }
            redis.evalsha(ackSha, ScriptOutputType.INTEGER, new byte[][] {PROCESSING, ACKED},
                    claimed.toArray(byte[][]::new));
        });
    }

    @Override
    public void produce(int from, int to) {
        RedisCommands<byte[], byte[]> redis = producer.sync();
        for (int i = from; i < to; i++) {
            redis.rpush(READY, Bodies.of(i));
        }
    }

    @Override
    public void sendOne(int index) {
        producer.sync().rpush(READY, Bodies.of(index));
    }

    @Override
    public void awaitSettled() {
        while (producer.sync().zcard(PROCESSING) > 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }
}
