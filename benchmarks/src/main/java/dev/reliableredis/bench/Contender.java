package dev.reliableredis.bench;

/**
 * One way of moving messages through a queue, measured in a JVM of its own. Consumers report each message to the
 * {@link Ledger} when its processing starts; the message counts as done when the contender settled it (acked).
 */
public interface Contender extends AutoCloseable {

    /** Starts the consumers; from now on every message's processing start goes to the ledger. */
    void startConsumers(Ledger ledger) throws Exception;

    /** Sends the messages with indexes from (inclusive) to (exclusive), on the calling thread, the contender's way. */
    void produce(int from, int to) throws Exception;

    /** Sends one message, the contender's plain way: once the queue accepted it, or at once where sends pipeline. */
    void sendOne(int index) throws Exception;

    /** Returns once nothing is left in flight: every received message was settled. */
    void awaitSettled() throws Exception;

    /**
     * Counts of its calls to the queue so far, for the contenders that count them: {@code <call>Calls} and
     * {@code <call>Messages} for enqueue, claim and ack.
     */
    default java.util.Map<String, Long> calls() {
        return java.util.Map.of();
    }

    /** Whether the contender keeps its messages in the benchmark's Redis (for Redis CPU and memory figures). */
    default boolean usesRedis() {
        return true;
    }
}
