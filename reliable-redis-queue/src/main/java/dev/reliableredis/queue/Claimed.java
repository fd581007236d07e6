package dev.reliableredis.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * What one claim script call took, one part per claimant it claimed for, or, when it took nothing because the queue
 * is paused or at its rate limit, the {@link Hold} its claimer waits on.
 *
 * @param parts what was claimed for each claimant, in the order of the claimants, each in order; empty while held
 * @param hold  null unless the queue is paused or at its rate limit
 */
public record Claimed(List<List<Delivery>> parts, Hold hold) {

    public static Claimed of(List<List<Delivery>> parts) {
        return new Claimed(parts, null);
    }

    public static Claimed held(Hold hold) {
        return new Claimed(List.of(), hold);
    }

    /** The part of claimant {@code index}; empty when it got nothing. */
    public List<Delivery> part(int index) {
        return index < parts.size() ? parts.get(index) : List.of();
    }

    /** An empty part for each of {@code claimants} claimants. */
    public static List<List<Delivery>> none(int claimants) {
        return Collections.nCopies(claimants, List.of());
    }

    /** One part for each of {@code claimants} claimants, empty ones included. */
    public List<List<Delivery>> parts(int claimants) {
        List<List<Delivery>> all = new ArrayList<>(claimants);
        for (int i = 0; i < claimants; i++) {
            all.add(part(i));
        }
        return all;
    }

    /** Every part's deliveries, in order. */
    public List<Delivery> deliveries() {
        List<Delivery> all = new ArrayList<>();
        parts.forEach(all::addAll);
        return all;
    }

    /** Whether no part took anything. */
    public boolean isEmpty() {
        return parts.stream().allMatch(List::isEmpty);
    }

    /** The parts of a claim for {@code claimants} claimants, the part of each row given by {@code partOf} (from 1). */
    public static <R> List<List<Delivery>> split(int claimants, List<R> rows, ToIntFunction<R> partOf,
            Function<R, Delivery> delivery) {
        List<List<Delivery>> parts = new ArrayList<>(claimants);
        for (int i = 0; i < claimants; i++) {
            parts.add(new ArrayList<>());
        }
        for (R row : rows) {
            // a claim replayed for fewer claimants than it first ran for: the surplus parts go to the last claimant
            parts.get(Math.min(partOf.applyAsInt(row), claimants) - 1).add(delivery.apply(row));
        }
        return parts;
    }
}
