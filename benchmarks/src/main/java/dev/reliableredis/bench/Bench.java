package dev.reliableredis.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reliableredis.testsupport.RedisProcess;

/**
 * The benchmark: starts its own redis-server (no persistence, and once more with {@code appendfsync everysec}), runs
 * every contender in a fresh process, interleaved in rounds, and writes the medians, ratios and charts into
 * {@code docs/performance.md}. Settings (system properties): {@code bench.rounds} (3), {@code bench.messages}
 * (50000), {@code bench.queued} (100000, the send-only and drain phase), {@code bench.sweepMessages} (10000),
 * {@code bench.only} (a regex on the run labels),
 * {@code bench.docs} (the docs folder to write into), {@code bench.bullmq} (benchmarks/bullmq),
 * {@code bench.reportOnly} (write the page again from the results of the last run, measuring nothing),
 * {@code bench.jfr} (a folder: each run's JVM records a JFR profile there),
 * {@code bench.baselineJar} (a jar of the component built at another revision, which {@code benchmarks/run} builds
 * from {@code bench.baseline}: the component's plain runs, with 64 and with 8 senders and the latter's latency, run
 * with it too, each right beside the current build's, labelled {@code @<bench.baseline>}).
 */
public final class Bench {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The headline's senders: 8 bounds every contender by 8 ÷ send latency; 64 is a busy route's concurrency. */
    private static final List<Integer> SENDERS = List.of(8, 64);
    private static final int CONSUMERS = 8;
    private static final int PER_POLL = 100;
    private static final int IDLE_SAMPLES = 1_000;
    private static final int LOADED_SECONDS = 5;
    /** The highest rate a loaded-latency phase paces at, msgs/s (see {@link #rateFor}). */
    static final int MAX_LOADED_RATE = 100_000;

    private final int rounds = Integer.getInteger("bench.rounds", 3);
    private final int messages = Integer.getInteger("bench.messages", 50_000);
    private final int queued = Integer.getInteger("bench.queued", 100_000);
    private final int sweepMessages = Integer.getInteger("bench.sweepMessages", 10_000);
    private final Pattern only = Pattern.compile(System.getProperty("bench.only", ".*"));
    private final Path docs = Path.of(System.getProperty("bench.docs", "docs"));
    private final File bullmq = new File(System.getProperty("bench.bullmq", "benchmarks/bullmq"));
    private final Path results = Path.of(System.getProperty("bench.results", "benchmarks/target/results.jsonl"));
    /** The baseline's revision, when there is a baseline jar to run. */
    private final String baseline = System.getProperty("bench.baselineJar") == null ? null
            : System.getProperty("bench.baseline", "baseline");
    private final List<Map<String, Object>> collected = new ArrayList<>();
    private String redisVersion;

    public static void main(String[] args) throws Exception {
        new Bench().run();
        System.exit(0);
    }

    private void run() throws Exception {
        if (Boolean.getBoolean("bench.reportOnly")) {
            for (String line : Files.readAllLines(results)) {
                collected.add(JSON.readValue(line, new TypeReference<Map<String, Object>>() {
                }));
            }
            String redisVersion = String.valueOf(collected.get(0).getOrDefault("redisVersion", "unknown"));
            new Report(collected, docs, redisVersion, true, rounds, messages, queued, sweepMessages).write();
            return;
        }
        if (baseline != null) {
            ChildProcess.classPath(baseline); // a class path it cannot make fails the run before it starts
        }
        Files.createDirectories(results.getParent());
        Files.deleteIfExists(results);
        File log = results.resolveSibling("runs.log").toFile();
        boolean node = Bullmq.available(bullmq);
        try (RedisProcess plain = RedisProcess.start();
             RedisProcess everysec = RedisProcess.start("--appendonly", "yes", "--appendfsync", "everysec")) {
            redisVersion = RedisVersion.of(plain.uri());
            for (int round = 1; round <= rounds; round++) {
                for (int senders : SENDERS) {
                    for (Spec spec : headline(round, "none", plain.port(), senders)) {
                        Map<String, Object> result = measure(spec, log, node);
                        if (result != null && senders == 8 && isLatencyContender(spec)) {
                            measure(spec.withLatency(IDLE_SAMPLES, rateFor(result), LOADED_SECONDS), log, node);
                        }
                    }
                }
                for (Spec spec : sweep(round, plain.port())) {
                    measure(spec, log, node);
                }
                for (Spec spec : headline(round, "everysec", everysec.port(), 8)) {
                    if (spec.contender().equals("ceiling") || spec.contender().equals("component")) {
                        measure(spec, log, node);
                    }
                }
            }
            new Report(collected, docs, redisVersion, node, rounds, messages, queued, sweepMessages).write();
        }
    }

    private Map<String, Object> measure(Spec spec, File log, boolean node) throws Exception {
        if (!only.matcher(spec.label()).find()) {
            return null;
        }
        System.out.printf("round %d  %-40s %s%n", spec.round(), spec.label(), describe(spec));
        Map<String, Object> result;
        try {
            if (spec.contender().equals("bullmq")) {
                if (!node) {
                    return null;
                }
                result = Bullmq.run(spec, bullmq, log);
            } else {
                result = ChildProcess.jvm(spec, log);
            }
        } catch (Exception e) {
            System.out.println("   failed: " + e.getMessage());
            return null;
        }
        result.put("label", spec.label());
        result.put("spec", JSON.convertValue(spec, Map.class));
        result.put("redisVersion", redisVersion);
        System.out.println("   " + summary(result));
        collected.add(result);
        Files.writeString(results, JSON.writeValueAsString(result) + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        return result;
    }

    /**
     * The contenders at the headline settings: 8 consumers, 100 per claim, and the given senders. With 8 senders on
     * Redis without persistence, each run starts with the queued phase (send-only, memory, drain).
     */
    private List<Spec> headline(int round, String redis, int port, int senders) {
        int queuedFirst = senders == 8 && redis.equals("none") ? queued : 0;
        List<Spec> specs = new ArrayList<>();
        specs.add(spec("ceiling", "", "plain", PER_POLL, round, redis, port, senders, queuedFirst));
        // sync: plain sends with the producer's synchronous option, which wakes the sending thread from the reply;
        // shared: plain sends through the consumer's endpoint, on its command connection; limited: plain sends with
        // the queue-wide limits and a time to live on, not binding; grouped (list mode): plain sends in 10,000 FIFO
        // groups (see ComponentRoute)
        List<String> sends = senders == 64 ? List.of("plain", "sync", "fast", "shared", "limited", "grouped")
                : List.of("plain", "fast");
        for (String mode : List.of("list", "stream")) {
            for (String send : sends) {
                if (send.equals("grouped") && mode.equals("stream")) {
                    continue;
                }
                Spec current = spec("component", mode, send, PER_POLL, round, redis, port, senders, queuedFirst);
                specs.add(current);
                if (baseline != null && send.equals("plain")) {
                    // right beside the current build's run, and first in every other round, so that what the run
                    // before leaves (a Redis just worked, a busier machine) does not always fall on the same build
                    specs.add(round % 2 == 0 ? specs.size() - 1 : specs.size(), current.withBuild(baseline));
                }
            }
        }
        specs.add(spec("seed", "", "plain", 1, round, redis, port, senders, queuedFirst));
        specs.add(spec("batched", "", "plain", PER_POLL, round, redis, port, senders, queuedFirst));
        specs.add(spec("streams", "", "plain", PER_POLL, round, redis, port, senders, queuedFirst));
        specs.add(spec("rabbitmq", "", "plain", PER_POLL, round, redis, port, senders, queuedFirst));
        specs.add(spec("bullmq", "", "plain", 1, round, redis, port, senders, queuedFirst));
        return specs;
    }

    private Spec spec(String contender, String mode, String send, int perPoll, int round, String redis, int port,
            int senders, int queuedFirst) {
        return new Spec(contender, mode, send, CONSUMERS, perPoll, senders, messages, queuedFirst, 0, 0, 0, redis,
                port, round, "");
    }

    /** The component in both modes with plain sends, over consumers and messages per claim. */
    private List<Spec> sweep(int round, int port) {
        List<Spec> specs = new ArrayList<>();
        for (String mode : List.of("list", "stream")) {
            for (int consumers : Report.SWEEP_CONSUMERS) {
                for (int perPoll : Report.SWEEP_PER_POLL) {
                    specs.add(new Spec("component", mode, "plain", consumers, perPoll, 8, sweepMessages, 0, 0, 0, 0,
                            "none", port, round, ""));
                }
            }
        }
        return specs;
    }

    /** Latency is measured for the plain ways of sending, beside the raw hand-off floor. */
    private static boolean isLatencyContender(Spec spec) {
        return spec.send().equals("plain")
               && List.of("ceiling", "component", "streams", "rabbitmq", "bullmq").contains(spec.contender());
    }

    /**
     * Half the throughput the same contender just reached, at most {@link #MAX_LOADED_RATE}: the ceiling's batched
     * sends reach rates its paced senders (one RPUSH per message) cannot follow, and the messages they fall behind
     * by pile up in the JVM (on 16 cores, 697,000 msgs/s ran it out of heap).
     */
    private static double rateFor(Map<String, Object> result) {
        return Math.min(((Number) result.get("msgsPerSec")).doubleValue() / 2, MAX_LOADED_RATE);
    }

    private static String describe(Spec spec) {
        return spec.messages() > 0 ? (spec.queued() > 0 ? spec.queued() + " queued, then " : "") + spec.messages()
                                     + " msgs, redis " + spec.redis()
                : "latency, idle + " + Math.round(spec.loadedRate()) + " msgs/s";
    }

    private static String summary(Map<String, Object> result) {
        Map<String, Object> shown = new LinkedHashMap<>(result);
        shown.keySet().removeIf(k -> k.equals("spec") || k.equals("label") || k.endsWith("Histogram"));
        return shown.toString();
    }
}
