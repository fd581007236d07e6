package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.batch.CallBatcher;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The batching rules on their own; each call is a future the test completes, standing for Redis's answer. */
class CallBatcherTest {

    private record Call(List<Integer> requests, CompletableFuture<List<String>> result) {
        void answer() {
            result.complete(requests.stream().map(r -> "r" + r).toList());
        }
    }

    private final List<Call> calls = new ArrayList<>();

    private synchronized CompletionStage<List<String>> call(List<Integer> requests) {
        Call call = new Call(List.copyOf(requests), new CompletableFuture<>());
        calls.add(call);
        return call.result();
    }

    @Test
    void requestsThatArriveWhileACallIsUnderWayGoTogetherInTheNextCall() throws Exception {
        CallBatcher<Integer, String> batcher = new CallBatcher<>(this::call, 100);
        CompletableFuture<String> first = batcher.submit(1);
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int i = 2; i <= 10; i++) {
            waiting.add(batcher.submit(i));
        }
        assertThat(calls).extracting(Call::requests).containsExactly(List.of(1));
        assertThat(first).isNotDone();

        calls.get(0).answer();
        assertThat(first.get(1, TimeUnit.SECONDS)).isEqualTo("r1");
        assertThat(calls).extracting(Call::requests).containsExactly(List.of(1), List.of(2, 3, 4, 5, 6, 7, 8, 9, 10));

        calls.get(1).answer();
        for (int i = 0; i < waiting.size(); i++) {
            assertThat(waiting.get(i).get(1, TimeUnit.SECONDS)).isEqualTo("r" + (i + 2));
        }
    }

    @Test
    void aCallCarriesAtMostMaxBatchRequestsButNeverSplitsASubmission() throws Exception {
        CallBatcher<Integer, String> batcher = new CallBatcher<>(this::call, 3);
        batcher.submit(0);
        CompletableFuture<List<String>> big = batcher.submitAll(List.of(1, 2, 3, 4));
        batcher.submitAll(List.of(5, 6));
        batcher.submit(7);

        calls.get(0).answer();
        calls.get(1).answer();
        calls.get(2).answer();
        assertThat(calls).extracting(Call::requests)
                .containsExactly(List.of(0), List.of(1, 2, 3, 4), List.of(5, 6, 7));
        assertThat(big.get(1, TimeUnit.SECONDS)).containsExactly("r1", "r2", "r3", "r4");
    }

    @Test
    void aFailedCallFailsEveryRequestInItAndTheNextCallStillGoes() throws Exception {
        CallBatcher<Integer, String> batcher = new CallBatcher<>(this::call, 100);
        CompletableFuture<String> failing = batcher.submit(1);
        CompletableFuture<String> next = batcher.submit(2);

        calls.get(0).result().completeExceptionally(new IllegalStateException("refused"));
        assertThatThrownBy(() -> failing.get(1, TimeUnit.SECONDS)).hasRootCauseMessage("refused");
        calls.get(1).answer();
        assertThat(next.get(1, TimeUnit.SECONDS)).isEqualTo("r2");
    }

    @Test
    void anAnswerWithTheWrongNumberOfResultsFailsEveryRequestInTheCall() {
        CallBatcher<Integer, String> batcher = new CallBatcher<>(requests -> CompletableFuture.completedFuture(
                List.of("only one")), 100);
        assertThatThrownBy(() -> batcher.submitAll(List.of(1, 2)).get(1, TimeUnit.SECONDS))
                .hasRootCauseMessage("Redis answered 1 results for 2 requests");
    }

    @Test
    void aCallThatCannotStartFailsTheRequestsWaitingBehindItWithoutTryingEachAgain() throws Exception {
        List<List<Integer>> attempts = new ArrayList<>();
        CompletableFuture<List<String>> firstAnswer = new CompletableFuture<>();
        CallBatcher<Integer, String> batcher = new CallBatcher<>(requests -> {
            attempts.add(List.copyOf(requests));
            if (attempts.size() == 1) {
                return firstAnswer;
            }
            throw new IllegalStateException("not connected");
        }, 1);
        CompletableFuture<String> first = batcher.submit(1);
        CompletableFuture<String> second = batcher.submit(2);
        CompletableFuture<String> third = batcher.submit(3);

        firstAnswer.complete(List.of("r1"));

        assertThat(first.get(1, TimeUnit.SECONDS)).isEqualTo("r1");
        assertThatThrownBy(() -> second.get(1, TimeUnit.SECONDS)).hasRootCauseMessage("not connected");
        assertThatThrownBy(() -> third.get(1, TimeUnit.SECONDS)).hasRootCauseMessage("not connected");
        assertThat(attempts).containsExactly(List.of(1), List.of(2));
    }

    @Test
    void aCallThatThrowsFailsItsRequests() {
        CallBatcher<Integer, String> batcher = new CallBatcher<>(requests -> {
            throw new IllegalStateException("not connected");
        }, 100);
        assertThatThrownBy(() -> batcher.submit(1).get(1, TimeUnit.SECONDS)).hasRootCauseMessage("not connected");
    }
}
