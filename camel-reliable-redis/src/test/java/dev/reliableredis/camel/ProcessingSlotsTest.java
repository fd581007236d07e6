package dev.reliableredis.camel;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessingSlotsTest {

    @Test
    void aWaitForSeveralFreeSlotsEndsAsSoonAsThatManyAreFreeOrAtItsLimitWithFewer() throws Exception {
        ProcessingSlots slots = new ProcessingSlots(4);
        slots.take();
        slots.take();
        slots.take();

        assertThat(slots.awaitFree(2, Duration.ofMillis(20))).as("only one free when the wait ends").isEqualTo(1);

        CompletableFuture<Integer> threeFree = awaitFree(slots, 3);
        slots.release();
        slots.release();
        assertThat(threeFree.get(10, TimeUnit.SECONDS)).isEqualTo(3);

        slots.release();
        assertThat(awaitFree(slots, 10).get(10, TimeUnit.SECONDS)).as("never waits for more than all of them")
                .isEqualTo(4);
    }

    /** A wait on another thread, with a limit far beyond the test's own. */
    private static CompletableFuture<Integer> awaitFree(ProcessingSlots slots, int wanted) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return slots.awaitFree(wanted, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
