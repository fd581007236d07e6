package dev.reliableredis.queue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MessageIdsTest {

    @Test
    void idsAre128RandomBitsIn22UrlSafeCharacters() {
        String id = MessageIds.newId();

        assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]{22}");
        assertThat(java.util.Base64.getUrlDecoder().decode(id)).hasSize(16);
    }

    @Test
    void threadsDrawingAtOnceNeverDrawTheSameId() {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Void>> threads = IntStream.range(0, 8).mapToObj(t -> CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 20_000; i++) {
                ids.add(MessageIds.newId());
            }
        }, runnable -> new Thread(runnable).start())).toList();
        threads.forEach(CompletableFuture::join);

        assertThat(ids).hasSize(8 * 20_000);
    }
}
