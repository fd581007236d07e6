package dev.reliableredis.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** Send-to-start latencies of one phase, recorded from many consumer threads. */
public final class Latencies {

    private final Recorder recorder = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);

    void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    /** The latencies recorded since the last call, forgetting them. */
    public Histogram take() {
        return recorder.getIntervalHistogram();
    }

    /** p50, p99 and p99.9 in ms, under the given name prefix. */
    public static Map<String, Object> percentiles(String prefix, Histogram h) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(prefix + "Samples", h.getTotalCount());
        out.put(prefix + "P50", ms(h.getValueAtPercentile(50)));
        out.put(prefix + "P99", ms(h.getValueAtPercentile(99)));
        out.put(prefix + "P999", ms(h.getValueAtPercentile(99.9)));
        return out;
    }

    static double ms(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }
}
