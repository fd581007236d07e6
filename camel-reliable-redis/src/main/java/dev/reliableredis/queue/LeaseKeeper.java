package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the leases of deliveries that are still being processed from expiring: {@link #extendAll()} moves
 * every held lease's deadline forward in one script call per batch.
 */
public final class LeaseKeeper {

    private static final int BATCH = 500;

    private final ReliableQueue queue;
    private final Set<Lease> held = ConcurrentHashMap.newKeySet();

    public LeaseKeeper(ReliableQueue queue) {
        this.queue = queue;
    }

    public void hold(Lease lease) {
        held.add(lease);
    }

    public void drop(Lease lease) {
        held.remove(lease);
    }

    public int size() {
        return held.size();
    }

    /** Extends every held lease; returns the leases Redis refused (already lost), which are no longer held. */
    public List<Lease> extendAll() {
        List<Lease> all = new ArrayList<>(held);
        List<Lease> lost = new ArrayList<>();
        for (int from = 0; from < all.size(); from += BATCH) {
            List<Lease> batch = all.subList(from, Math.min(all.size(), from + BATCH));
            List<Settled> results = queue.extend(batch);
            for (int i = 0; i < batch.size(); i++) {
                if (results.get(i) == Settled.REFUSED && held.remove(batch.get(i))) {
                    lost.add(batch.get(i));
                }
            }
        }
        return lost;
    }
}
