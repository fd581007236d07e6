package dev.reliableredis.queue;

import java.util.List;

/**
 * What one claim script call took, or, when it took nothing because the queue is paused, the {@link Pause} its
 * claimer waits on.
 *
 * @param deliveries what was claimed, in order; empty while paused
 * @param pause      null unless the queue is paused
 */
public record Claimed(List<Delivery> deliveries, Pause pause) {

    public static Claimed of(List<Delivery> deliveries) {
        return new Claimed(deliveries, null);
    }

    public static Claimed paused(Pause pause) {
        return new Claimed(List.of(), pause);
    }
}
