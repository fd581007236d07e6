package dev.reliableredis.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;

/**
 * The JVM of one measured run: the queued phase (messages sent with nobody consuming: the send-only rate and Redis
 * bytes per queued message; then the consumers alone drain them), the throughput phase (N messages produced,
 * consumed and acked concurrently), then the latency phases (one message at a time; then a paced load). Each
 * phase that moves messages reports Redis CPU and this JVM's CPU per message, and for the component the average
 * messages per enqueue, claim and ack call. Prints one line, {@code RESULT {json}}.
 */
public final class RunOne {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long RECEIPT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final int LOADED_SENDERS = 32;

    private final Spec spec;
    private final RedisInfo info;
    private final Map<String, Object> result = new LinkedHashMap<>();

    private RunOne(Spec spec, RedisInfo info) {
        this.spec = spec;
        this.info = info;
    }

    public static void main(String[] args) throws Exception {
        Spec spec = JSON.readValue(args[0], Spec.class);
        try (RedisInfo info = new RedisInfo(spec.redisUri())) {
            Map<String, Object> result = new RunOne(spec, info).run();
            System.out.println("RESULT " + JSON.writeValueAsString(result));
        }
        System.exit(0);
    }

    private Map<String, Object> run() throws Exception {
        result.put("label", spec.label());
        result.put("spec", spec);
        int n = spec.messages();
        int loaded = (int) Math.ceil(spec.loadedRate() * spec.loadedSeconds());
        int warmup = spec.warmup();
        Ledger ledger = new Ledger(n + warmup + spec.idleSamples() + loaded);
        info.flush();
        if (spec.queued() > 0) {
            try (Contender contender = Contenders.create(spec)) {
                queued(contender, new Ledger(spec.queued()));
            }
            info.flush();
        }
        try (Contender contender = Contenders.create(spec)) {
            if (n > 0) {
                throughput(contender, ledger);
            } else {
                contender.startConsumers(ledger);
                warmUp(contender, ledger, warmup);
            }
            if (spec.idleSamples() > 0) {
                idleLatency(contender, ledger, n + warmup);
            }
            if (loaded > 0) {
                loadedLatency(contender, ledger, n + warmup + spec.idleSamples(), loaded);
            }
        }
        return result;
    }

    private void queued(Contender contender, Ledger ledger) throws Exception {
        int n = spec.queued();
        long before = info.usedMemory();
        long start = System.nanoTime();
        produce(contender, 0, n);
        result.put("sendOnlyMsgsPerSec", Math.round(n / ((System.nanoTime() - start) / 1e9)));
        if (contender.usesRedis()) {
            result.put("bytesPerQueued", (info.usedMemory() - before) / n);
        }
        long cpuBefore = info.cpuMicros();
        long jvmBefore = JvmCpu.micros();
        start = System.nanoTime();
        contender.startConsumers(ledger);
        awaitReceived(ledger, n, start);
        contender.awaitSettled();
        result.put("drainMsgsPerSec", Math.round(n / ((System.nanoTime() - start) / 1e9)));
        result.put("drainLost", ledger.lost(0, n));
        result.put("drainDuplicates", ledger.duplicates(0, n));
        result.put("drainClientCpuUsPerMsg", round((double) (JvmCpu.micros() - jvmBefore) / n, 2));
        if (contender.usesRedis()) {
            result.put("drainCpuUsPerMsg", round((double) (info.cpuMicros() - cpuBefore) / n, 2));
        }
    }

    private static void awaitReceived(Ledger ledger, int n, long start) {
        while (ledger.distinct() < n) {
            if (System.nanoTime() - start > DRAIN_TIMEOUT_NANOS) {
                throw new IllegalStateException("Only " + ledger.distinct() + " of " + n + " arrived");
            }
            LockSupport.parkNanos(200_000);
        }
    }

    private void throughput(Contender contender, Ledger ledger) throws Exception {
        int n = spec.messages();
        long memoryBefore = info.usedMemory();
        long cpuBefore = info.cpuMicros();
        Map<String, Long> callsBefore = contender.calls();
        contender.startConsumers(ledger);
        long jvmBefore = JvmCpu.micros();
        long start = System.nanoTime();
        produce(contender, 0, n);
        long sent = System.nanoTime();
        awaitReceived(ledger, n, start);
        contender.awaitSettled();
        long end = System.nanoTime();
        long jvm = JvmCpu.micros() - jvmBefore;
        long cpu = info.cpuMicros() - cpuBefore;
        double seconds = (end - start) / 1e9;
        result.put("seconds", round(seconds, 3));
        result.put("sendSeconds", round((sent - start) / 1e9, 3));
        result.put("msgsPerSec", Math.round(n / seconds));
        result.put("lost", ledger.lost(0, n));
        result.put("duplicates", ledger.duplicates(0, n));
        result.put("clientCpuUsPerMsg", round((double) jvm / n, 2));
        perCall(callsBefore, contender.calls());
        if (contender.usesRedis()) {
            result.put("cpuUsPerMsg", round((double) cpu / n, 2));
            result.put("leftKeys", info.keys());
            result.put("leftBytesPerMsg", (info.usedMemory() - memoryBefore) / n);
        }
    }

    /**
     * Messages per enqueue, claim, non-empty claim and ack call over the phase, where the contender counts its calls.
     */
    private void perCall(Map<String, Long> before, Map<String, Long> after) {
        for (String call : List.of("enqueue", "claim", "nonEmptyClaim", "ack")) {
            Long calls = delta(before, after, call + "Calls");
            Long messages = delta(before, after, call + "Messages");
            if (calls != null && messages != null && calls > 0) {
                result.put("msgsPer" + Character.toUpperCase(call.charAt(0)) + call.substring(1) + "Call",
                        round((double) messages / calls, 2));
            }
        }
    }

    private static Long delta(Map<String, Long> before, Map<String, Long> after, String key) {
        return after.containsKey(key) ? after.get(key) - before.getOrDefault(key, 0L) : null;
    }

    private void warmUp(Contender contender, Ledger ledger, int count) throws Exception {
        produce(contender, 0, count);
        long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
        while (ledger.distinct() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Only " + ledger.distinct() + " of " + count
                                                + " warm-up messages arrived");
            }
            LockSupport.parkNanos(1_000_000);
        }
        contender.awaitSettled();
        result.put("warmup", count);
    }

    /** Each producer thread sends its slice of the indexes. */
    private void produce(Contender contender, int from, int to) throws Exception {
        int threads = spec.producers();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> sends = new ArrayList<>();
            int slice = (to - from + threads - 1) / threads;
            for (int t = 0; t < threads; t++) {
                int a = from + t * slice;
                int b = Math.min(to, a + slice);
                if (a < b) {
                    sends.add(pool.submit(() -> {
                        contender.produce(a, b);
                        return null;
                    }));
                }
            }
            for (Future<?> send : sends) {
                send.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private void idleLatency(Contender contender, Ledger ledger, int first) throws Exception {
        ledger.latencies().take();
        for (int i = first; i < first + spec.idleSamples(); i++) {
            ledger.sending(i, System.nanoTime());
            contender.sendOne(i);
            ledger.awaitReceipt(i, RECEIPT_TIMEOUT_NANOS);
        }
        contender.awaitSettled();
        result.putAll(Latencies.percentiles("idle", ledger.latencies().take()));
    }

    /**
     * Sends at the given rate, each message due at its own time; the latency counts from when it was due, so a send
     * that falls behind is not hidden (no coordinated omission).
     */
    private void loadedLatency(Contender contender, Ledger ledger, int first, int count) throws Exception {
        ledger.latencies().take();
        double intervalNanos = 1e9 / spec.loadedRate();
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        AtomicInteger next = new AtomicInteger();
        // one message per send: enough threads that the paced sends keep up where a send takes a round trip
        int threads = LOADED_SENDERS;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                senders.add(pool.submit(() -> {
                    for (int k = next.getAndIncrement(); k < count; k = next.getAndIncrement()) {
                        long due = start + (long) (k * intervalNanos);
                        long wait;
                        while ((wait = due - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        ledger.sending(first + k, due);
                        contender.sendOne(first + k);
                    }
                    return null;
                }));
            }
            for (Future<?> sender : senders) {
                sender.get();
            }
        } finally {
            pool.shutdown();
        }
        long deadline = System.nanoTime() + RECEIPT_TIMEOUT_NANOS;
        while (ledger.distinct() < first + count && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        contender.awaitSettled();
        Histogram h = ledger.latencies().take();
        result.put("loadedRate", Math.round(spec.loadedRate()));
        result.put("loadedLost", ledger.lost(first, first + count));
        result.putAll(Latencies.percentiles("loaded", h));
        result.put("loadedHistogram", Histograms.encode(h));
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
