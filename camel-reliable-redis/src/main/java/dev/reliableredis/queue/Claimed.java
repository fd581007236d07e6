package dev.reliableredis.queue;

import java.util.List;

/**
 * What one claim script call took, or, when it took nothing because the queue is paused or at its rate limit, the
 * {@link Hold} its claimer waits on.
 *
 * @param deliveries what was claimed, in order; empty while held
 * @param hold       null unless the queue is paused or at its rate limit
 */
public record Claimed(List<Delivery> deliveries, Hold hold) {

    public static Claimed of(List<Delivery> deliveries) {
        return new Claimed(deliveries, null);
    }

    public static Claimed held(Hold hold) {
        return new Claimed(List.of(), hold);
    }
}
