package dev.reliableredis.queue;

import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.keys.QueueLayout;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.sharded.ShardCount;
import dev.reliableredis.queue.stream.StreamOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The layout version each queue records beside its shard count: a new queue gets the engine's, and a queue whose
 * record says another, or that holds messages with none recorded, is refused before anything reads its keys.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class LayoutVersionTest extends QueueTestBase {

    private StreamOptions options() {
        return streamMode() ? group("g", "c1") : null;
    }

    private ShardCount record(int shards) {
        return Queues.shardCount(gateway, "rr", "orders", shards, options());
    }

    private ReliableQueue orders(int shards) {
        return Queues.open(gateway, "rr", "orders", shards, options(), settings(30_000, 3, 1000));
    }

    @Test
    void aNewQueueRecordsTheEnginesVersionInEachShardsRecord() {
        record(3).check();

        for (int shard = 0; shard < 3; shard++) {
            assertThat(raw.hget("rr:{" + QueueNames.shard("orders", shard) + "}:meta", "layout"))
                    .isEqualTo(QueueLayout.VERSION);
        }
    }

    @Test
    void aQueueOfAnotherVersionIsRefusedNamingItAndKeepsItsRecord() {
        record(1).check();
        raw.hset("rr:{orders}:meta", "layout", "9");

        assertThatThrownBy(() -> record(1).check()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Queue 'orders' has layout version 9 (rr:{orders}:meta)")
                .hasMessageContaining("version " + QueueLayout.VERSION)
                .hasMessageContaining("drain the queue").hasMessageEndingWith("upgrade notes in docs/deployment.md)");
        assertThatThrownBy(() -> record(1).requireLayout()).hasMessageContaining("layout version 9");
        assertThat(raw.hget("rr:{orders}:meta", "layout")).isEqualTo("9");
    }

    /**
     * Messages written before versions were recorded (a delayed one: a key only the component writes, in both modes):
     * refused, and nothing recorded, so every endpoint sees it.
     */
    @Test
    void messagesWithNoVersionRecordedAreRefusedAndNothingIsRecorded() {
        orders(1).enqueue(List.of(delayed("m1")));

        assertThatThrownBy(() -> record(1).check()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Queue 'orders' holds messages written before layout versions were recorded "
                                        + "(no version in rr:{orders}:meta)");
        assertThat(raw.hexists("rr:{orders}:meta", "layout")).isFalse();
        assertThat(orders(1).stats().delayed()).as("kept as it was").isEqualTo(1);
    }

    /** Only one shard of three holds messages: that shard is named, and the others are not recorded either. */
    @Test
    void aShardWithUnversionedMessagesIsNamed() {
        record(3).check();
        raw.hdel("rr:{orders#2}:meta", "layout");
        String shard = QueueNames.shard("orders", 2);
        QueueSettings settings = settings(30_000, 3, 1000);
        (streamMode() ? streamQueue(shard, settings, options()) : queue(shard, settings))
                .enqueue(List.of(delayed("m1")));

        assertThatThrownBy(() -> record(3).check()).hasMessageContaining("(no version in rr:{orders#2}:meta)");
    }

    /** Other programs may write a stream with the contract's fields: its entries alone say nothing of a layout. */
    @Test
    void aStreamsEntriesAloneAreTaken() {
        assumeTrue(streamMode());
        raw.xadd("rr:{orders}:stream", Map.of("body", "from another program"));

        record(1).check();

        assertThat(raw.hget("rr:{orders}:meta", "layout")).isEqualTo(QueueLayout.VERSION);
    }

    private static NewMessage delayed(String id) {
        return new NewMessage(id, id.getBytes(), null, 60_000);
    }

    /** A drained queue keeps keys (the acked ids, a stream and its groups), which hold no message: it is taken. */
    @Test
    void aDrainedQueueWithNoVersionIsTakenAndRecorded() {
        ReliableQueue queue = orders(1);
        queue.enqueue(List.of(message("m1", "a")));
        assertThat(queue.ack(queue.claim(1).stream().map(Delivery::lease).toList())).containsExactly(Settled.ACKED);
        assertThat(raw.exists("rr:{orders}:acked")).isEqualTo(1);

        record(1).check();

        assertThat(raw.hget("rr:{orders}:meta", "layout")).isEqualTo(QueueLayout.VERSION);
    }

    @Test
    void aReshardRecordsTheVersionInTheShardsItAdds() {
        record(2).check();

        record(2).reshard(3);

        assertThat(raw.hget("rr:{orders#2}:meta", "layout")).isEqualTo(QueueLayout.VERSION);
        record(3).check();
    }
}
