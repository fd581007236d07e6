package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Message counts of a queue, taken in one atomic snapshot.
 *
 * @param oldestPendingAge stream mode: age in ms of the oldest pending entry (0 when none); list mode: -1
 */
public record QueueStats(long ready, long inflight, long delayed, long dead, long oldestPendingAge) {

    public QueueStats(long ready, long inflight, long delayed, long dead) {
        this(ready, inflight, delayed, dead, -1);
    }

    public Map<String, Long> toMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("ready", ready);
        map.put("inflight", inflight);
        map.put("delayed", delayed);
        map.put("dead", dead);
        if (oldestPendingAge >= 0) {
            map.put("oldestPendingAge", oldestPendingAge);
        }
        return map;
    }
}
