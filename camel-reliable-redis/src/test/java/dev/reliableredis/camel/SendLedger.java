package dev.reliableredis.camel;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a failover test's producer sent and its consumer received, kept outside Redis: every id a send was attempted
 * with, when Redis acknowledged each send that succeeded, and every delivery. Lost = acknowledged and never received.
 */
final class SendLedger {

    private final AtomicLong sequence = new AtomicLong();
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();
    /** Acknowledged sends, by id: System.nanoTime() when the acknowledgement arrived. */
    private final Map<String, Long> acked = new ConcurrentHashMap<>();
    private final AtomicLong failed = new AtomicLong();
    private final ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();

    /** A fresh deduplication id, recorded as attempted. */
    String nextId() {
        String id = "m-" + sequence.incrementAndGet();
        attempted.add(id);
        return id;
    }

    void acked(String id) {
        acked.put(id, System.nanoTime());
    }

    void failed() {
        failed.incrementAndGet();
    }

    void received(String id) {
        received.add(id);
    }

    int ackedCount() {
        return acked.size();
    }

    long failedCount() {
        return failed.get();
    }

    int receivedCount() {
        return received.size();
    }

    Set<String> attempted() {
        return Set.copyOf(attempted);
    }

    Set<String> acked() {
        return Set.copyOf(acked.keySet());
    }

    /** The sends acknowledged at or after the moment (System.nanoTime()). */
    Set<String> ackedSince(long nanos) {
        Set<String> since = new HashSet<>();
        acked.forEach((id, at) -> {
            if (at - nanos >= 0) {
                since.add(id);
            }
        });
        return since;
    }

    /** Every delivery, in order; an id delivered twice is there twice. */
    List<String> received() {
        return List.copyOf(received);
    }

    Set<String> receivedIds() {
        return new HashSet<>(received);
    }

    /** Acknowledged sends that were never delivered. */
    Set<String> lost() {
        Set<String> lost = new HashSet<>(acked.keySet());
        lost.removeAll(receivedIds());
        return lost;
    }

    /** Deliveries beyond the first of an id. */
    int duplicates() {
        return received.size() - receivedIds().size();
    }

    /** When the send of this acknowledged id was acknowledged (System.nanoTime()). */
    long ackedAt(String id) {
        return acked.get(id);
    }
}
