package dev.reliableredis.queue;

/**
 * What one reaper call moved.
 *
 * @param more true when a part of the call took a full batch: there may be more to do, call again
 */
public record ReapResult(long expiredReturned, long expiredDeadLettered, long delayedReleased,
        long deadLettersReturned, long ackedIdsForgotten, boolean more) {

    public long total() {
        return expiredReturned + expiredDeadLettered + delayedReleased + deadLettersReturned + ackedIdsForgotten;
    }
}
