package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Message counts of a queue, and how long its oldest waiting messages have waited, taken in one atomic snapshot.
 *
 * @param ready             messages waiting to be claimed
 * @param inflight          messages under a lease, dead letters being consumed included
 * @param delayed           messages waiting for their delay or for a retry backoff
 * @param dead              dead letters not being consumed
 * @param oldestPendingAge  stream mode: age in ms of the oldest pending entry (0 when none); list mode: -1
 * @param oldestReadyAge    ms since the message at the head of the ready line was enqueued; 0 when nothing is ready
 * @param oldestInflightAge ms since the longest-held lease was taken or last extended; 0 when nothing is in flight
 * @param paused            whether the queue is paused ({@link ReliableQueue#pause}); a sharded queue is while any of
 *                          its shards is
 */
public record QueueStats(long ready, long inflight, long delayed, long dead, long oldestPendingAge,
        long oldestReadyAge, long oldestInflightAge, boolean paused) {

    /** The counts alone, as list mode has them: no oldest pending entry, both ages 0, not paused. */
    public QueueStats(long ready, long inflight, long delayed, long dead) {
        this(ready, inflight, delayed, dead, -1, 0, 0, false);
    }

    /** The counts and ages by name, and paused as 0 or 1; {@code oldestPendingAge} only in stream mode. */
    public Map<String, Long> toMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("ready", ready);
        map.put("inflight", inflight);
        map.put("delayed", delayed);
        map.put("dead", dead);
        if (oldestPendingAge >= 0) {
            map.put("oldestPendingAge", oldestPendingAge);
        }
        map.put("oldestReadyAge", oldestReadyAge);
        map.put("oldestInflightAge", oldestInflightAge);
        map.put("paused", paused ? 1L : 0L);
        return map;
    }
}
