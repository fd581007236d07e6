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
 * (50000), {@code bench.sweepMessages} (10000), {@code bench.only} (a regex on the run labels),
 * {@code bench.docs} (the docs folder to write into), {@code bench.bullmq} (benchmarks/bullmq),
 * {@code bench.reportOnly} (write the page again from the results of the last run, measuring nothing).
 */
public final class Bench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PRODUCERS = 8;
    private static final int CONSUMERS = 8;
    private static final int PER_POLL = 100;
    private static final int IDLE_SAMPLES = 1_000;
    private static final int LOADED_SECONDS = 5;

    private final int rounds = Integer.getInteger("bench.rounds", 3);
    private final int messages = Integer.getInteger("bench.messages", 50_000);
    private final int sweepMessages = Integer.getInteger("bench.sweepMessages", 10_000);
    private final Pattern only = Pattern.compile(System.getProperty("bench.only", ".*"));
    private final Path docs = Path.of(System.getProperty("bench.docs", "docs"));
    private final File bullmq = new File(System.getProperty("bench.bullmq", "benchmarks/bullmq"));
    private final Path results = Path.of(System.getProperty("bench.results", "benchmarks/target/results.jsonl"));
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
            new Report(collected, docs, redisVersion, true, rounds, messages, sweepMessages).write();
            return;
        }
        Files.createDirectories(results.getParent());
        Files.deleteIfExists(results);
        File log = results.resolveSibling("runs.log").toFile();
        boolean node = Bullmq.available(bullmq);
        try (RedisProcess plain = RedisProcess.start();
             RedisProcess everysec = RedisProcess.start("--appendonly", "yes", "--appendfsync", "everysec")) {
            redisVersion = RedisVersion.of(plain.uri());
            for (int round = 1; round <= rounds; round++) {
                for (Spec spec : headline(round, "none", plain.port())) {
                    Map<String, Object> result = measure(spec, log, node);
                    if (result != null && isLatencyContender(spec)) {
                        measure(spec.withLatency(IDLE_SAMPLES, rateFor(result), LOADED_SECONDS), log, node);
                    }
                }
                for (Spec spec : sweep(round, plain.port())) {
                    measure(spec, log, node);
                }
                for (Spec spec : headline(round, "everysec", everysec.port())) {
                    if (spec.contender().equals("ceiling") || spec.contender().equals("component")) {
                        measure(spec, log, node);
                    }
                }
            }
            new Report(collected, docs, redisVersion, node, rounds, messages, sweepMessages).write();
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

    /** The contenders at the headline settings: 8 producer threads, 8 consumers, 100 per claim. */
    private List<Spec> headline(int round, String redis, int port) {
        List<Spec> specs = new ArrayList<>();
        specs.add(spec("ceiling", "", "plain", CONSUMERS, PER_POLL, round, redis, port));
        for (String mode : List.of("list", "stream")) {
            for (String send : List.of("plain", "fast")) {
                specs.add(spec("component", mode, send, CONSUMERS, PER_POLL, round, redis, port));
            }
        }
        specs.add(spec("seed", "", "plain", CONSUMERS, 1, round, redis, port));
        specs.add(spec("batched", "", "plain", CONSUMERS, PER_POLL, round, redis, port));
        specs.add(spec("streams", "", "plain", CONSUMERS, PER_POLL, round, redis, port));
        specs.add(spec("rabbitmq", "", "plain", CONSUMERS, PER_POLL, round, redis, port).withoutMemory());
        specs.add(spec("bullmq", "", "plain", CONSUMERS, 1, round, redis, port));
        return specs;
    }

    private Spec spec(String contender, String mode, String send, int consumers, int perPoll, int round, String redis,
            int port) {
        return new Spec(contender, mode, send, consumers, perPoll, PRODUCERS, messages, true, 0, 0, 0, redis, port,
                round);
    }

    /** The component in both modes and both ways of sending, over consumers and messages per claim. */
    private List<Spec> sweep(int round, int port) {
        List<Spec> specs = new ArrayList<>();
        for (String mode : List.of("list", "stream")) {
            for (String send : List.of("plain", "fast")) {
                for (int consumers : List.of(1, 4, 16, 64)) {
                    for (int perPoll : List.of(1, 10, 100)) {
                        specs.add(new Spec("component", mode, send, consumers, perPoll, PRODUCERS, sweepMessages,
                                false, 0, 0, 0, "none", port, round));
                    }
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

    /** Half the throughput the same contender just reached. */
    private static double rateFor(Map<String, Object> result) {
        return ((Number) result.get("msgsPerSec")).doubleValue() / 2;
    }

    private static String describe(Spec spec) {
        return spec.messages() > 0 ? spec.messages() + " msgs, redis " + spec.redis()
                : "latency, idle + " + Math.round(spec.loadedRate()) + " msgs/s";
    }

    private static String summary(Map<String, Object> result) {
        Map<String, Object> shown = new LinkedHashMap<>(result);
        shown.keySet().removeIf(k -> k.equals("spec") || k.equals("label") || k.endsWith("Histogram"));
        return shown.toString();
    }
}
