package dev.reliableredis.queue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.PartialFailure;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.Settled;

/**
 * Keeps the leases of deliveries from expiring until they are settled: {@link #extendAll()} moves every held
 * lease's deadline forward in one script call per batch. A lease is held from its claim on: while it waits behind
 * its batch-mates, while its exchange runs, and then while its settlement is on its way to Redis.
 */
public final class LeaseKeeper {

    private static final int BATCH = 500;

    private final ReliableQueue queue;
    /** Held leases; the value says whether the lease's settlement is on its way. */
    private final Map<Lease, Boolean> held = new ConcurrentHashMap<>();

    public LeaseKeeper(ReliableQueue queue) {
        this.queue = queue;
    }

    public void hold(Lease lease) {
        held.put(lease, false);
    }

    /** The lease's exchange is done and its settlement is on its way; it stays held until {@link #drop}. */
    public void settling(Lease lease) {
        held.replace(lease, true);
    }

    public void drop(Lease lease) {
        held.remove(lease);
    }

    public boolean holds(Lease lease) {
        return held.containsKey(lease);
    }

    public int size() {
        return held.size();
    }

    /**
     * Extends every held lease, in calls of at most {@value #BATCH}. A lease Redis refused is no longer held; the lost
     * leases are those whose exchange was still running or not started yet. A refused lease whose settlement was on
     * its way is not among them: the settlement may have landed first. A call that fails leaves its leases held as
     * they are, and the other calls are still made (a sharded queue's failing shard leaves the others' leases
     * extended); the first failure is reported. Makes no Redis call when no lease is held.
     */
    public Extension extendAll() {
        List<Lease> all = new ArrayList<>(held.keySet());
        List<Lease> lost = new ArrayList<>();
        int extended = 0;
        RuntimeException failure = null;
        for (int from = 0; from < all.size(); from += BATCH) {
            List<Lease> batch = all.subList(from, Math.min(all.size(), from + BATCH));
            List<Settled> results;
            try {
                results = queue.extend(batch);
            } catch (PartialFailure e) {
                results = e.results();
                failure = failure == null ? e : failure;
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                if (results.get(i) == Settled.EXTENDED) {
                    extended++;
                }
                // removed and checked in one step: a settlement marked meanwhile is not reported as lost
                if (results.get(i) == Settled.REFUSED && Boolean.FALSE.equals(held.remove(batch.get(i)))) {
                    lost.add(batch.get(i));
                }
            }
        }
        return new Extension(!all.isEmpty(), extended, lost, failure);
    }

    /**
     * What one {@link #extendAll()} did.
     *
     * @param called   whether a lease was held, so that Redis was called
     * @param extended how many leases Redis extended
     * @param lost     the leases Redis refused while their exchanges were still running
     * @param failure  the first call that failed, or null
     */
    public record Extension(boolean called, int extended, List<Lease> lost, RuntimeException failure) {
    }
}
