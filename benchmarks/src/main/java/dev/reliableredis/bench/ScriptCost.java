package dev.reliableredis.bench;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;

/**
 * What each script of the data path costs Redis per message: the CPU time of Redis's main thread ({@code INFO cpu},
 * Redis 6.2 or newer) while a JVM runs the enqueue, claim and ack of plain messages in calls of 1 and of 40, in both
 * modes, on a Redis of its own that nothing else uses, one call at a time. Unlike the end-to-end benchmark, the
 * figure leaves out the JVM and the batching that its load makes, so that a change to a script shows at its size;
 * it keeps each call's reading and writing of its socket, the same for both builds.
 * Settings: {@code scripts.rounds} (7; every figure is the median), {@code scripts.messages} (8000 per call size),
 * {@code bench.baselineJar} (a jar of the component at another revision, {@code bench.baseline} its name: each round
 * runs it right after this build, each in a JVM of its own; its engine API must be this one's).
 */
public final class ScriptCost {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int[] CALL_SIZES = {1, 40};

    private ScriptCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("scripts.rounds", 7);
        int messages = Integer.getInteger("scripts.messages", 8_000);
        String baseline = System.getProperty("bench.baseline", "");
        List<String> builds = baseline.isEmpty() ? List.of("") : List.of("", baseline);
        List<String> reversed = baseline.isEmpty() ? builds : List.of(baseline, "");
        Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
        File log = new File("benchmarks/target/script-cost.log");
        for (int round = 1; round <= rounds; round++) {
            // each build goes first in every other round: the machine's state moves during a round
            for (String build : round % 2 == 1 ? builds : reversed) {
                Map<String, Object> result = ChildProcess.jvm(Run.class, build, String.valueOf(messages), log);
                result.forEach((name, value) -> figures.computeIfAbsent(name, n -> new LinkedHashMap<>())
                        .computeIfAbsent(build, b -> new ArrayList<>()).add(((Number) value).doubleValue()));
                System.out.printf("round %d %s done%n", round, build.isEmpty() ? "this build" : build);
            }
        }
        System.out.println();
        System.out.println("| script, plain messages | calls of | this build µs/msg (lowest–highest)"
                + (baseline.isEmpty() ? " |" : " | " + baseline + " µs/msg | this ÷ " + baseline + ", medians |"));
        System.out.println("|---|---:|---:|" + (baseline.isEmpty() ? "" : "---:|---:|"));
        figures.forEach((name, byBuild) -> {
            double current = median(byBuild.get(""));
            String[] parts = name.split(" ");
            StringBuilder row = new StringBuilder(String.format("| %s %s | %s | %s |", parts[0], parts[2],
                    parts[1], spread(byBuild.get(""))));
            if (!baseline.isEmpty()) {
                row.append(String.format(" %s | %.2f× |", spread(byBuild.get(baseline)),
                        current / median(byBuild.get(baseline))));
            }
            System.out.println(row);
        });
    }

    /** The median, and the lowest and highest figure of the rounds. */
    private static String spread(List<Double> values) {
        return String.format("%.2f (%.2f–%.2f)", median(values), values.stream().min(Double::compare).orElseThrow(),
                values.stream().max(Double::compare).orElseThrow());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** The measuring JVM: prints {@code RESULT} and a JSON object, "mode size script" -> µs of Redis per message. */
    public static final class Run {

        private Run() {
        }

        public static void main(String[] args) throws Exception {
            int messages = Integer.parseInt(args[0]);
            ClientResources resources = RedisGateway.newClientResources();
            Map<String, Double> result = new LinkedHashMap<>();
            try (RedisProcess redis = RedisProcess.start()) {
                RedisCommands<String, String> stats = redis.commands();
                RedisGateway gateway = RedisGateway.create(resources, RedisURI.create(redis.uri()),
                        Duration.ofSeconds(10));
                QueueSettings settings = QueueSettings.builder().maxRetryDelay(Duration.ofSeconds(100))
                        .idempotencyWindow(Duration.ofMinutes(10)).build();
                // a first round unmeasured: Redis's first growth of each structure, the scripts' first load
                measure("list", 1, 1_000, stats, new LinkedHashMap<>(), ListQueue.of(gateway, "rr", "warm", settings));
                for (int size : CALL_SIZES) {
                    measure("list", size, messages, stats, result,
                            ListQueue.of(gateway, "rr", "list-" + size, settings));
                    measure("stream", size, messages, stats, result, StreamQueue.of(gateway, "rr", "stream-" + size,
                            new StreamOptions(null, null, "g", "0", "c1", 0, true), settings));
                }
                gateway.close();
            } finally {
                resources.shutdown();
            }
            System.out.println("RESULT " + JSON.writeValueAsString(result));
        }

        private static void measure(String mode, int size, int messages, RedisCommands<String, String> stats,
                Map<String, Double> result, ReliableQueue queue) {
            Claimant claimant = new Claimant("t", Duration.ofSeconds(5));
            List<Delivery> claimed = new ArrayList<>();
            result.put(mode + " " + size + " enqueue", perMessage(stats, messages, () -> {
                for (int i = 0; i < messages; i += size) {
                    List<NewMessage> batch = new ArrayList<>(size);
                    for (int j = i; j < i + size; j++) {
                        batch.add(new NewMessage(UUID.randomUUID().toString(), ("{\"n\":" + j + "}").getBytes(),
                                Map.of("h", "v"), 0));
                    }
                    queue.enqueue(batch);
                }
            }));
            result.put(mode + " " + size + " claim", perMessage(stats, messages, () -> {
                while (claimed.size() < messages) {
                    claimed.addAll(queue.claim(claimant, size));
                }
            }));
            result.put(mode + " " + size + " ack", perMessage(stats, messages, () -> {
                for (int i = 0; i < messages; i += size) {
                    queue.ack(claimed.subList(i, Math.min(messages, i + size)).stream().map(Delivery::lease).toList());
                }
            }));
        }

        /**
         * µs of CPU Redis's main thread spent while the step ran, per message: CPU time, not the wall time that
         * commandstats gives, which grows whenever the machine's other processes take Redis's core.
         */
        private static double perMessage(RedisCommands<String, String> stats, int messages, Runnable step) {
            double before = mainThreadCpuSeconds(stats);
            step.run();
            return (mainThreadCpuSeconds(stats) - before) * 1e6 / messages;
        }

        private static double mainThreadCpuSeconds(RedisCommands<String, String> stats) {
            return stats.info("cpu").lines()
                    .filter(line -> line.startsWith("used_cpu_user_main_thread:")
                                    || line.startsWith("used_cpu_sys_main_thread:"))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim())).sum();
        }
    }
}
