package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The outage a consumer reports once, and the calls that succeed while there is none. */
class OutageReportTest {

    private final List<String> reported = new ArrayList<>();
    private final OutageReport report = new OutageReport("orders", (message, cause) -> reported.add(message),
            Runnable::run);

    @Test
    void anOutageIsReportedOnceAndEndsWhenEveryFailingActivitySucceeds() {
        report.succeeded("claim");
        report.failed("settle", new RedisConnectionException("connection refused"));
        report.failed("claim", new RedisConnectionException("connection refused"));
        report.failed("settle", new RedisConnectionException("connection refused"));

        assertThat(reported).hasSize(1).allMatch(message -> message.contains("queue 'orders' fail"));
        report.succeeded("settle");
        assertThat(report.state().up()).isFalse();
        report.succeeded("claim");
        assertThat(report.state().up()).isTrue();
        assertThat(report.state().lastOutage().failedAttempts()).isEqualTo(3);
    }

    @Test
    void aSuccessWhileNothingFailsTakesNoLockThatOtherCallsHold() {
        report.succeeded("settle");
        CompletableFuture<Void> success;
        // a settlement call succeeds for every lease it settled, each on Lettuce's I/O thread: none of them waits
        // for another thread's use of the report
        synchronized (report) {
            success = CompletableFuture.runAsync(() -> report.succeeded("settle"));
            await().atMost(Duration.ofSeconds(10)).until(success::isDone);
        }
        assertThat(report.state().up()).isTrue();
    }

    @Test
    void aFailureAfterASuccessIsAnOutageAgain() {
        report.succeeded("settle");
        report.failed("settle", new RedisConnectionException("connection refused"));

        report.succeeded("claim");

        assertThat(report.state().up()).isFalse();
        assertThat(reported).hasSize(1);
    }
}
