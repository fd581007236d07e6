package dev.reliableredis.queue.runtime;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** Takes the duration of each Redis call of an operation, such as {@code enqueue}, {@code ack} or {@code nack}. */
@FunctionalInterface
public interface RoundTrips {

    RoundTrips NONE = (operation, nanos) -> { };

    void record(String operation, long nanos);

    /** The call, with the duration of each of its calls recorded under the operation's name when it succeeds. */
    static <T, R> Function<List<T>, CompletionStage<List<R>>> timed(String operation, RoundTrips roundTrips,
            Function<List<T>, CompletionStage<List<R>>> call) {
        return batch -> {
            long start = System.nanoTime();
            return call.apply(batch).whenComplete((result, error) -> {
                if (error == null) {
                    roundTrips.record(operation, System.nanoTime() - start);
                }
            });
        };
    }
}
