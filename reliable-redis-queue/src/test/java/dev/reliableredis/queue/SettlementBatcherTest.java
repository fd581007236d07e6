package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.ReplicaWait;
import dev.reliableredis.queue.runtime.SettlementBatcher;
import dev.reliableredis.testsupport.CommandStats;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SettlementBatcherTest extends QueueTestBase {

    @Test
    void settlementsThatArriveWhileCallsAreUnderWayGoTogetherInTheNextCall() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        for (int i = 0; i < 202; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        List<Delivery> claimed = q.claim(202);
        List<String> timed = new CopyOnWriteArrayList<>();
        SettlementBatcher batcher = new SettlementBatcher(q, 500, (operation, nanos) -> timed.add(operation),
                ReplicaWait.OFF, (results, why) -> { });
        long scriptCallsBefore = CommandStats.scriptRuns(raw);

        // Redis holds every script call until unpaused: the first of each kind stays under way
        client("PAUSE", "30000", "WRITE");
        List<CompletableFuture<Settled>> results = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            results.add(batcher.ack(claimed.get(i).lease()));
        }
        results.add(batcher.ack(new Lease("m0", "m0", "stale")));
        results.add(batcher.nack(new Failure(claimed.get(200).lease(), "boom")));
        results.add(batcher.nack(new Failure(claimed.get(201).lease(), "boom")));
        client("UNPAUSE");

        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(results.subList(0, 200)).allSatisfy(r -> assertThat(r.get()).isEqualTo(Settled.ACKED));
        assertThat(results.get(200).get()).isEqualTo(Settled.REFUSED);
        assertThat(results.subList(201, 203)).allSatisfy(r -> assertThat(r.get()).isEqualTo(Settled.DEAD_LETTERED));
        assertThat(CommandStats.scriptRuns(raw) - scriptCallsBefore)
                .as("an ack call under way, one for the 200 acks that came meanwhile, and two for the nacks").isEqualTo(4);
        assertThat(timed).as("one duration per call").containsExactlyInAnyOrder("ack", "ack", "nack", "nack");
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 2));
    }

    private void client(String... args) {
        raw.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addValues(args));
    }
}
