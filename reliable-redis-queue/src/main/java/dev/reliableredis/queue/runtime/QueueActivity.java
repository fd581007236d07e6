package dev.reliableredis.queue.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import dev.reliableredis.queue.Settled;

/**
 * What one endpoint's consumers and producers did since it started, in this JVM: counts, the source of the JMX
 * attributes, the Micrometer counters and the dev console, and the timing of Redis round trips, which goes to
 * Micrometer when the application has it. Counting costs an uncontended add on the paths it counts.
 */
public final class QueueActivity implements RoundTrips {

    /** What is counted, each under the name {@link #toMap()} gives it. */
    public enum Count {
        DELIVERED("delivered"),
        ACKED("acked"),
        RETRIED("retried"),
        DEAD_LETTERED("deadLettered"),
        RETRIED_AFTER("retriedAfter"),
        REFUSED("refusedSettlements"),
        /** Acks done on the master that fewer replicas than waitReplicas confirmed. */
        UNREPLICATED_ACKS("unreplicatedAcks"),
        LEASE_EXTENSIONS("leaseExtensions"),
        LEASES_LOST("leasesLost"),
        ENQUEUED("enqueued"),
        DUPLICATES("duplicates"),
        /** Redis calls of the hot paths and the messages claimed: the average messages per call are read from them. */
        ENQUEUE_CALLS("enqueueCalls"),
        CLAIM_CALLS("claimCalls"),
        /** The claim calls that took something: what a message costs in claims, idle waits apart. */
        NON_EMPTY_CLAIM_CALLS("nonEmptyClaimCalls"),
        CLAIMED("claimed"),
        ACK_CALLS("ackCalls");

        private final String key;

        Count(String key) {
            this.key = key;
        }
    }

    private final LongAdder[] counts = new LongAdder[Count.values().length];
    private volatile RoundTrips roundTrips = RoundTrips.NONE;

    public QueueActivity() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void timeRoundTripsWith(RoundTrips timer) {
        roundTrips = timer;
    }

    @Override
    public void record(String operation, long nanos) {
        switch (operation) {
            case "enqueue" -> add(Count.ENQUEUE_CALLS, 1);
            case "ack" -> add(Count.ACK_CALLS, 1);
            default -> {
                // nacks are few: timed, not counted
            }
        }
        roundTrips.record(operation, nanos);
    }

    public void add(Count count, long amount) {
        counts[count.ordinal()].add(amount);
    }

    /** The count since the endpoint started. */
    public long get(Count count) {
        return counts[count.ordinal()].sum();
    }

    /** One claim call landed, with this many messages (0: it found none). */
    public void claimed(int messages) {
        add(Count.CLAIM_CALLS, 1);
        if (messages > 0) {
            add(Count.NON_EMPTY_CLAIM_CALLS, 1);
        }
        add(Count.CLAIMED, messages);
    }

    public void settled(Settled result) {
        add(switch (result) {
            case ACKED -> Count.ACKED;
            case RETRY_SCHEDULED -> Count.RETRIED;
            case DEAD_LETTERED -> Count.DEAD_LETTERED;
            case RETRY_AFTER -> Count.RETRIED_AFTER;
            default -> Count.REFUSED;
        }, 1);
    }

    public void sent(boolean stored) {
        add(stored ? Count.ENQUEUED : Count.DUPLICATES, 1);
    }

    /** Every count by its name, in the order of {@link Count}. */
    public Map<String, Long> toMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (Count count : Count.values()) {
            map.put(count.key, get(count));
        }
        return map;
    }
}
