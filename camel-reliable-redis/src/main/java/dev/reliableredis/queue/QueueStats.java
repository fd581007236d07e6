package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/** Message counts of a queue, taken in one atomic snapshot. */
public record QueueStats(long ready, long inflight, long delayed, long dead) {

    public Map<String, Long> toMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("ready", ready);
        map.put("inflight", inflight);
        map.put("delayed", delayed);
        map.put("dead", dead);
        return map;
    }
}
