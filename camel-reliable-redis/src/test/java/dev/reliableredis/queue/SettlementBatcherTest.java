package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.testsupport.CommandStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SettlementBatcherTest extends QueueTestBase {

    @Test
    void settlementsThatArriveWhileOneCallIsUnderWayGoTogetherInTheNextCall() throws Exception {
        ListQueue q = queue("orders", settings(30_000, 0, 1000));
        for (int i = 0; i < 201; i++) {
            q.enqueue(message("m" + i, "x"));
        }
        List<Delivery> claimed = q.claim(201);
        ExecutorService sender = Executors.newSingleThreadExecutor();
        CountDownLatch callUnderWay = new CountDownLatch(1);
        sender.execute(() -> {
            try {
                callUnderWay.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        SettlementBatcher batcher = new SettlementBatcher(q, sender, 500);
        long scriptCallsBefore = CommandStats.scriptRuns(raw);

        List<CompletableFuture<Settled>> results = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            results.add(batcher.ack(claimed.get(i).lease()));
        }
        results.add(batcher.ack(new Lease("m0", "m0", "stale")));
        results.add(batcher.nack(new Failure(claimed.get(200).lease(), "boom")));
        callUnderWay.countDown();

        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        sender.shutdown();
        assertThat(results.subList(0, 200)).allSatisfy(r -> assertThat(r.get()).isEqualTo(Settled.ACKED));
        assertThat(results.get(200).get()).isEqualTo(Settled.REFUSED);
        assertThat(results.get(201).get()).isEqualTo(Settled.DEAD_LETTERED);
        assertThat(CommandStats.scriptRuns(raw) - scriptCallsBefore).as("one ack call and one nack call").isEqualTo(2);
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }
}
