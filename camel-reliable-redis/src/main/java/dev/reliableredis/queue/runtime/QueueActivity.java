package dev.reliableredis.queue.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import dev.reliableredis.queue.RoundTrips;
import dev.reliableredis.queue.Settled;

/**
 * What one endpoint's consumers and producers did since it started, in this JVM: counts, the source of the JMX
 * attributes, the Micrometer counters and the dev console, and the timing of Redis round trips, which goes to
 * Micrometer when the application has it. Counting costs an uncontended add on the paths it counts.
 */
public final class QueueActivity implements RoundTrips {

    public final LongAdder delivered = new LongAdder();
    public final LongAdder acked = new LongAdder();
    public final LongAdder retried = new LongAdder();
    public final LongAdder deadLettered = new LongAdder();
    public final LongAdder retriedAfter = new LongAdder();
    public final LongAdder refused = new LongAdder();
    /** Acks done on the master that fewer replicas than waitReplicas confirmed. */
    public final LongAdder unreplicatedAcks = new LongAdder();
    public final LongAdder leaseExtensions = new LongAdder();
    public final LongAdder leasesLost = new LongAdder();
    public final LongAdder enqueued = new LongAdder();
    public final LongAdder duplicates = new LongAdder();
    /** Redis calls of the hot paths and the messages claimed: the average messages per call are read from them. */
    public final LongAdder enqueueCalls = new LongAdder();
    public final LongAdder claimCalls = new LongAdder();
    public final LongAdder claimed = new LongAdder();
    public final LongAdder ackCalls = new LongAdder();
    private volatile RoundTrips roundTrips = RoundTrips.NONE;

    public void timeRoundTripsWith(RoundTrips timer) {
        roundTrips = timer;
    }

    @Override
    public void record(String operation, long nanos) {
        switch (operation) {
            case "enqueue" -> enqueueCalls.increment();
            case "ack" -> ackCalls.increment();
            default -> {
                // nacks are few: timed, not counted
            }
        }
        roundTrips.record(operation, nanos);
    }

    /** One claim call landed, with this many messages (0: it found none). */
    public void claimed(int messages) {
        claimCalls.increment();
        claimed.add(messages);
    }

    public void settled(Settled result) {
        switch (result) {
            case ACKED -> acked.increment();
            case RETRY_SCHEDULED -> retried.increment();
            case DEAD_LETTERED -> deadLettered.increment();
            case RETRY_AFTER -> retriedAfter.increment();
            default -> refused.increment();
        }
    }

    public void sent(boolean stored) {
        (stored ? enqueued : duplicates).increment();
    }

    public Map<String, Long> toMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("delivered", delivered.sum());
        map.put("acked", acked.sum());
        map.put("retried", retried.sum());
        map.put("deadLettered", deadLettered.sum());
        map.put("retriedAfter", retriedAfter.sum());
        map.put("refusedSettlements", refused.sum());
        map.put("unreplicatedAcks", unreplicatedAcks.sum());
        map.put("leaseExtensions", leaseExtensions.sum());
        map.put("leasesLost", leasesLost.sum());
        map.put("enqueued", enqueued.sum());
        map.put("duplicates", duplicates.sum());
        map.put("enqueueCalls", enqueueCalls.sum());
        map.put("claimCalls", claimCalls.sum());
        map.put("claimed", claimed.sum());
        map.put("ackCalls", ackCalls.sum());
        return map;
    }
}
