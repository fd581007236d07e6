package dev.reliableredis.queue;

/** What one reaper call moved. */
public record ReapResult(long expiredReturned, long expiredDeadLettered, long delayedReleased,
        long deadLettersReturned, long ackedIdsForgotten) {

    public long total() {
        return expiredReturned + expiredDeadLettered + delayedReleased + deadLettersReturned + ackedIdsForgotten;
    }
}
