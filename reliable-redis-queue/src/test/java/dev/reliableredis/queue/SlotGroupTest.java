package dev.reliableredis.queue;

import java.util.Map;

import dev.reliableredis.queue.keys.QueueKey;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.stream.StreamQueue;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Queues of one slot group: their keys carry the group's hash tag before the queue's name, so that they share a Redis
 * Cluster slot and one script call can touch them all; a queue with no slot group keeps its own tag.
 */
class SlotGroupTest extends QueueTestBase {

    private static final String FLOW = QueueNames.inSlotGroup("rr", "flow");

    @Test
    void theQueuesOfASlotGroupShareItsSlotAndKeepTheirNamesInTheirKeys() {
        assertThat(QueueNames.keyBase(FLOW, "a")).isEqualTo("rr:{flow}:{a}:");
        assertThat(SlotHash.getSlot(QueueNames.keyBase(FLOW, "a") + "ready"))
                .isEqualTo(SlotHash.getSlot(QueueNames.keyBase(FLOW, "b") + "stream"))
                .isEqualTo(SlotHash.getSlot("flow"));
        assertThat(QueueNames.inSlotGroup("rr", null)).isEqualTo("rr");
        assertThat(QueueNames.keyBase(QueueNames.inSlotGroup("rr", ""), "a")).isEqualTo("rr:{a}:");
    }

    @Test
    void aQueueInASlotGroupIsAQueueOfItsOwnUnderTheGroupsKeys() {
        QueueSettings settings = settings(60_000, 3, 100);
        ReliableQueue list = ListQueue.of(gateway, FLOW, "a", settings);
        ReliableQueue stream = StreamQueue.of(gateway, FLOW, "b", group("g", "c1"), settings);
        ReliableQueue plain = queue("a", settings);

        list.enqueue(new NewMessage("m1", "in the group".getBytes(), Map.of(), 0));
        stream.enqueue(new NewMessage("m2", "in the group".getBytes(), Map.of(), 0));

        assertThat(raw.lrange("rr:{flow}:{a}:ready", 0, -1)).containsExactly("m1");
        assertThat(raw.xlen("rr:{flow}:{b}:stream")).isEqualTo(1);
        assertThat(raw.exists("rr:{a}:ready", "rr:{b}:stream")).isZero();
        assertThat(counts(plain).ready()).isZero();
        assertThat(list.claim(1)).extracting(Delivery::messageId).containsExactly("m1");
        assertThat(stream.claim(1)).extracting(Delivery::messageId).containsExactly("m2");
    }

    @Test
    void theLayoutsParserLeavesTheKeysOfASlotGroupAlone() {
        assertThat(QueueKey.parse("rr", "rr:{flow}:{a}:ready")).isEmpty();
        assertThat(QueueKey.parse(FLOW, "rr:{flow}:{a}:ready")).contains(new QueueKey("a", 0, "ready"));
    }

    @Test
    void aSlotGroupOrAPrefixThatCouldBreakOutOfItsTagIsRefusedNamingIt() {
        assertThatThrownBy(() -> QueueNames.inSlotGroup("rr", "a}b")).hasMessageContaining("slotGroup 'a}b'");
        assertThatThrownBy(() -> QueueNames.inSlotGroup("rr", "x".repeat(201))).hasMessageContaining("slotGroup");
        assertThatThrownBy(() -> QueueNames.keyBase("rr:{a}:{b}", "q")).hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> QueueNames.keyBase("rr:{a", "q")).hasMessageContaining("keyPrefix");
    }
}
