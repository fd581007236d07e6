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
 * @param capped            whether consumers wait at the queue's maxInflight: a claim found it at the cap, and no
 *                          settlement came since (in stream mode, of the group)
 * @param limited           whether the queue's rate limit holds claims back: a claim found the limit reached, and the
 *                          time it said to wait has not passed (in stream mode, of the group)
 * @param groups            list mode: message groups holding messages not yet settled (waiting, in flight, in a
 *                          retry, or a dead letter their group waits for); stream mode: 0
 */
public record QueueStats(long ready, long inflight, long delayed, long dead, long oldestPendingAge,
        long oldestReadyAge, long oldestInflightAge, boolean paused, boolean capped, boolean limited,
        long groups) {

    /** The counts alone, as list mode has them: no oldest pending entry, both ages 0, nothing held back. */
    public QueueStats(long ready, long inflight, long delayed, long dead) {
        this(ready, inflight, delayed, dead, -1, 0, 0, false, false, false, 0);
    }

    /**
     * The counts and ages by name, paused, capped and limited as 0 or 1, and the groups; {@code oldestPendingAge} only in stream
     * mode.
     */
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
        map.put("capped", capped ? 1L : 0L);
        map.put("limited", limited ? 1L : 0L);
        map.put("groups", groups);
        return map;
    }
}
