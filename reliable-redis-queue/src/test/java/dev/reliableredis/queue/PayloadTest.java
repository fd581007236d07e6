package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.reliableredis.queue.list.ListQueue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PayloadTest extends QueueTestBase {

    @Test
    void everyByteValueComesBackByteForByte() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        ListQueue q = queue("bytes", settings(30_000, 3, 1000));
        q.enqueue(new NewMessage("all", all, null, 0));

        assertThat(q.claim(1).get(0).body()).isEqualTo(all);
    }

    @Test
    void aFiveMegabyteBodyComesBackByteForByte() {
        byte[] big = new byte[5 * 1024 * 1024];
        new Random(42).nextBytes(big);
        ListQueue q = queue("big", settings(30_000, 3, 1000));
        q.enqueue(new NewMessage("big", big, null, 0));

        assertThat(q.claim(1).get(0).body()).isEqualTo(big);
    }

    @Test
    void equalPayloadsAreSeparateMessages() {
        ListQueue q = queue("same", settings(30_000, 3, 1000));
        for (int i = 0; i < 100; i++) {
            q.enqueue(new NewMessage("id-" + i, "same body".getBytes(), Map.of("k", "same"), 0));
        }

        List<Delivery> claimed = q.claim(1000);

        assertThat(claimed).hasSize(100);
        assertThat(claimed).extracting(Delivery::messageId).doesNotHaveDuplicates();
    }

    @Test
    void headersComeBackWithTheirJavaTypes() {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("s", "text with \"quotes\" and ünïcode");
        headers.put("i", 42);
        headers.put("l", 7L);
        headers.put("d", 2.5);
        headers.put("b", true);
        headers.put("raw", new byte[] {0, 1, (byte) 255});
        ListQueue q = queue("headers", settings(30_000, 3, 1000));
        q.enqueue(new NewMessage("h", new byte[0], headers, 0));

        Map<String, Object> back = q.claim(1).get(0).headers();

        assertThat(back).containsEntry("s", "text with \"quotes\" and ünïcode").containsEntry("i", 42)
                .containsEntry("l", 7L).containsEntry("d", 2.5).containsEntry("b", true);
        assertThat((byte[]) back.get("raw")).containsExactly(0, 1, 255);
    }

    @Test
    void malformedHeadersWrittenByAnotherProgramAreDroppedAndTheMessageStillDelivered() {
        ListQueue q = queue("garbage", settings(30_000, 3, 1000));
        q.enqueue(message("m1", "body"));
        raw.hset(key("garbage", "messages"), "m1", "1700000000000|9|{not jsonbody");

        Delivery d = q.claim(1).get(0);

        assertThat(new String(d.body())).isEqualTo("body");
        assertThat(d.headers()).isEmpty();
    }
}
