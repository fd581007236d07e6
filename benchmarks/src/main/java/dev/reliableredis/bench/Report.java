package dev.reliableredis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import org.HdrHistogram.Histogram;

/** Medians over the rounds, ratios to the ceiling and the floor, the targets, and the charts: docs/performance.md. */
final class Report {

    /** The sweep's measured points: the chart's axis shows these and no others. */
    static final List<Integer> SWEEP_CONSUMERS = List.of(1, 8, 64);
    static final List<Integer> SWEEP_PER_POLL = List.of(1, 10, 100);

    private final List<Map<String, Object>> results;
    private final Path docs;
    private final String redisVersion;
    private final boolean node;
    private final int rounds;
    private final int messages;
    private final int queued;
    private final int sweepMessages;
    private final StringBuilder md = new StringBuilder();

    Report(List<Map<String, Object>> results, Path docs, String redisVersion, boolean node, int rounds, int messages,
            int queued, int sweepMessages) {
        this.results = results;
        this.docs = docs;
        this.redisVersion = redisVersion;
        this.node = node;
        this.rounds = rounds;
        this.messages = messages;
        this.queued = queued;
        this.sweepMessages = sweepMessages;
    }

    void write() throws IOException {
        Path charts = docs.resolve("performance");
        Files.createDirectories(charts);
        Charts.throughput(this, charts.resolve("throughput-by-consumers.png"));
        Charts.latency(this, charts.resolve("latency-at-half-load.png"));
        header();
        targets();
        headline("none", 64);
        baseline();
        headline("none", 8);
        perCall();
        queuedPhase();
        latency();
        sweep();
        headline("everysec", 8);
        DocSection.write(docs.resolve("performance.md"), "benchmark results", "benchmarks/run", md.toString());
    }

    private void header() {
        md.append("Written by `benchmarks/run` on ").append(LocalDate.now()).append(" (").append(Machine.describe())
          .append(", Redis ").append(redisVersion).append("): ").append(rounds).append(" rounds, each contender in a")
          .append(" fresh process, interleaved; every figure is the median over the rounds. ")
          .append(messages).append(" messages of 100 bytes per headline run, sent by 64 and by 8 threads (one message")
          .append(" per send for the plain senders) while consumed and acked, every id checked. Client CPU is the")
          .append(" CPU time of the contender's whole process (its senders, consumers and the benchmark's ledger) per")
          .append(" message. Redis capacity is 1,000,000 ÷ Redis CPU µs per message: what one Redis core carries at")
          .append(" that cost on the machine above, a figure that moves less between machines than throughput.\n\n");
        if (!node) {
            md.append("BullMQ was skipped: Node.js or its `npm ci` was missing.\n\n");
        }
    }

    private void headline(String redis, int senders) {
        String suffix = senders == 8 ? "" : " s=" + senders;
        List<String> labels = labels(r -> spec(r, "redis").equals(redis) && number(r, "msgsPerSec") != null
                                          && intSpec(r, "messages") == messages && intSpec(r, "producers") == senders
                                          && build(r).isEmpty());
        if (labels.isEmpty()) {
            return;
        }
        Double ceiling = median("ceiling" + suffix, redis, "msgsPerSec");
        md.append(redis.equals("none") ? "## Throughput end to end, " + senders + " senders, Redis without persistence\n\n"
                : "## Throughput end to end, " + senders + " senders, Redis with `appendonly yes`, `appendfsync everysec`\n\n");
        md.append("| contender | msgs/s | × ceiling | Redis CPU µs/msg | Redis capacity msgs/s | client CPU µs/msg"
                  + " | keys left | bytes left/msg | lost | duplicated |\n"
                  + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String label : labels) {
            Double rate = median(label, redis, "msgsPerSec");
            Double redisCpu = median(label, redis, "cpuUsPerMsg");
            md.append("| ").append(label).append(" | ").append(fmt(rate, 0)).append(" | ")
              .append(ceiling == null ? "" : fmt(rate / ceiling, 3)).append(" | ")
              .append(fmt(redisCpu, 1)).append(" | ")
              .append(redisCpu == null || redisCpu <= 0 ? "–" : fmt(1_000_000 / redisCpu, 0)).append(" | ")
              .append(fmt(median(label, redis, "clientCpuUsPerMsg"), 1)).append(" | ")
              .append(fmt(median(label, redis, "leftKeys"), 0)).append(" | ")
              .append(fmt(median(label, redis, "leftBytesPerMsg"), 0)).append(" | ")
              .append(fmt(sum(label, redis, "lost"), 0)).append(" | ")
              .append(fmt(sum(label, redis, "duplicates"), 0)).append(" |\n");
        }
        md.append("\n");
    }

    /**
     * The component's plain runs beside the same runs of a baseline build (bench.baselineJar): throughput and CPU
     * with 64 and with 8 senders, and idle latency, which the 8-sender runs measure.
     */
    private void baseline() {
        for (String build : results.stream().map(Report::build).filter(b -> !b.isEmpty()).distinct().toList()) {
            md.append("## This build beside the baseline ").append(build).append(", plain senders\n\n")
              .append("The component's `plain c=8 p=100` runs with 64 and with 8 senders, Redis without persistence,")
              .append(" and the same runs with the component's jar built at `").append(build).append("`, each right")
              .append(" beside this build's in the same round on the same Redis; the third row of each divides this")
              .append(" build's figures by the baseline's. Idle latency is measured after the 8-sender runs.\n\n")
              .append("| mode | senders | build | msgs/s | Redis CPU µs/msg | JVM CPU µs/msg | idle p50 ms")
              .append(" | idle p99 ms |\n")
              .append("|---|---:|---|---:|---:|---:|---:|---:|\n");
            for (String mode : List.of("list", "stream")) {
                for (String senders : List.of(" s=64", "")) {
                    String label = "component " + mode + " plain c=8 p=100" + senders;
                    String base = label + " @" + build;
                    if (median(base, "none", "msgsPerSec") == null) {
                        continue;
                    }
                    StringBuilder thisRow = new StringBuilder();
                    StringBuilder baseRow = new StringBuilder();
                    StringBuilder ratioRow = new StringBuilder();
                    for (String field : List.of("msgsPerSec", "cpuUsPerMsg", "clientCpuUsPerMsg", "idleP50",
                            "idleP99")) {
                        Double value = median(label, "none", field);
                        Double baseValue = median(base, "none", field);
                        int decimals = field.equals("msgsPerSec") ? 0 : field.startsWith("idle") ? 3 : 1;
                        thisRow.append(" | ").append(fmt(value, decimals));
                        baseRow.append(" | ").append(fmt(baseValue, decimals));
                        ratioRow.append(" | ").append(value == null || baseValue == null ? "–"
                                : fmt(value / baseValue, 2) + "×");
                    }
                    String row = "| " + mode + " | " + (senders.isEmpty() ? "8" : "64") + " | ";
                    md.append(row).append("this").append(thisRow).append(" |\n").append(row).append(build)
                      .append(baseRow).append(" |\n").append(row).append("this ÷ ").append(build).append(ratioRow)
                      .append(" |\n");
                }
            }
            md.append("\n");
        }
    }

    /** The component's average messages per Redis call in the headline runs. */
    private void perCall() {
        List<String> labels = labels(r -> spec(r, "redis").equals("none") && number(r, "msgsPerClaimCall") != null
                                          && intSpec(r, "messages") == messages && build(r).isEmpty());
        if (labels.isEmpty()) {
            return;
        }
        md.append("## Messages per Redis call, the component's own counts\n\n")
          .append("Averages over the throughput phase: messages per enqueue script call (the sends that were waiting")
          .append(" while the call before was under way), per claim (empty claims of idle threads included: the fair")
          .append(" share shrinks claims when the backlog is short), per claim that took something (a claim for")
          .append(" several idle threads counts once), and per ack script call.\n\n")
          .append("| run | per enqueue call | per claim call | per non-empty claim call | per ack call |\n")
          .append("|---|---:|---:|---:|---:|\n");
        for (String label : labels) {
            md.append("| ").append(label).append(" | ").append(fmt(median(label, "none", "msgsPerEnqueueCall"), 1))
              .append(" | ").append(fmt(median(label, "none", "msgsPerClaimCall"), 1)).append(" | ")
              .append(fmt(median(label, "none", "msgsPerNonEmptyClaimCall"), 1)).append(" | ")
              .append(fmt(median(label, "none", "msgsPerAckCall"), 1)).append(" |\n");
        }
        md.append("\n");
    }

    /** The queued phase: sends with nobody consuming, then the consumers alone drain the backlog. */
    private void queuedPhase() {
        List<String> labels = labels(r -> number(r, "drainMsgsPerSec") != null);
        if (labels.isEmpty()) {
            return;
        }
        Double batched = medianOf(r -> r.get("label").equals("batched c=8"), "drainMsgsPerSec");
        md.append("## Send-only and drain, ").append(queued).append(" messages, 8 senders, 8 consumer threads\n\n")
          .append("Send-only: the messages are sent with no consumer running. Drain: then the consumers start and")
          .append(" take the whole backlog; the clock runs until every message was received and acked. Redis bytes")
          .append(" per queued message are measured at the end of the sends.\n\n")
          .append("| contender | send-only msgs/s | drain msgs/s | drain × batched | drain Redis CPU µs/msg | drain client"
                  + " CPU µs/msg | Redis bytes/queued msg | lost | duplicated |\n"
                  + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String label : labels) {
            Double drain = medianOf(r -> r.get("label").equals(label), "drainMsgsPerSec");
            md.append("| ").append(label).append(" | ")
              .append(fmt(medianOf(r -> r.get("label").equals(label), "sendOnlyMsgsPerSec"), 0)).append(" | ")
              .append(fmt(drain, 0)).append(" | ").append(batched == null ? "" : fmt(drain / batched, 2)).append(" | ")
              .append(fmt(medianOf(r -> r.get("label").equals(label), "drainCpuUsPerMsg"), 1)).append(" | ")
              .append(fmt(medianOf(r -> r.get("label").equals(label), "drainClientCpuUsPerMsg"), 1)).append(" | ")
              .append(fmt(medianOf(r -> r.get("label").equals(label), "bytesPerQueued"), 0)).append(" | ")
              .append(fmt(sumOf(r -> r.get("label").equals(label), "drainLost"), 0)).append(" | ")
              .append(fmt(sumOf(r -> r.get("label").equals(label), "drainDuplicates"), 0)).append(" |\n");
        }
        md.append("\n");
    }

    private void latency() {
        List<String> labels = labels(r -> number(r, "idleP50") != null);
        if (labels.isEmpty()) {
            return;
        }
        Double floor50 = median("ceiling", "none", "idleP50");
        Double floor99 = median("ceiling", "none", "idleP99");
        md.append("## Latency, send to route start (ms)\n\n")
          .append("Idle: one message at a time. Loaded: paced at half the throughput the same contender reached in")
          .append(" the same round (at most ").append(String.format(Locale.ROOT, "%,d", Bench.MAX_LOADED_RATE))
          .append(" msgs/s), counted from when each message was due. `ceiling` here is the raw hand-off")
          .append(" floor: an RPUSH to a consumer blocked in BLPOP; its loaded figures measure its senders, one")
          .append(" RPUSH per message, which cannot keep up with half of what its batched sends reached.\n\n")
          .append("| contender | idle p50 | idle p99 | idle p99.9 | idle p50 × floor | idle p99 × floor | loaded msgs/s"
                  + " | loaded p50 | loaded p99 | loaded p99.9 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String label : labels) {
            Double p50 = median(label, "none", "idleP50");
            Double p99 = median(label, "none", "idleP99");
            md.append("| ").append(label).append(" | ").append(fmt(p50, 3)).append(" | ").append(fmt(p99, 3))
              .append(" | ").append(fmt(median(label, "none", "idleP999"), 3)).append(" | ")
              .append(floor50 == null ? "" : fmt(p50 / floor50, 2)).append(" | ")
              .append(floor99 == null ? "" : fmt(p99 / floor99, 2)).append(" | ")
              .append(fmt(median(label, "none", "loadedRate"), 0)).append(" | ")
              .append(fmt(median(label, "none", "loadedP50"), 3)).append(" | ")
              .append(fmt(median(label, "none", "loadedP99"), 3)).append(" | ")
              .append(fmt(median(label, "none", "loadedP999"), 3)).append(" |\n");
        }
        md.append("\n![latency at half load](performance/latency-at-half-load.png)\n\n");
    }

    /** Issue 35's targets: ratios to the other designs measured in the same run, met or missed. */
    private void targets() {
        md.append("## Targets (issue 35)\n\n| target | measured | met |\n|---|---|---|\n");
        String list = "component list plain c=8 p=100";
        String list64 = list + " s=64";
        String batched = "batched c=8";
        Double cpu64 = median(list64, "none", "cpuUsPerMsg");
        atMostRatio("list Redis CPU/msg, 64 senders ≤ 1.2× batched", cpu64,
                median(batched + " s=64", "none", "cpuUsPerMsg"), 1.2, "µs");
        atMostRatio("list Redis CPU/msg, 8 senders ≤ 2× batched", median(list, "none", "cpuUsPerMsg"),
                median(batched, "none", "cpuUsPerMsg"), 2, "µs");
        atMostRatio("list Redis CPU/msg, drain ≤ 2× batched", drain(list, "drainCpuUsPerMsg"),
                drain(batched, "drainCpuUsPerMsg"), 2, "µs");
        atLeast("list Redis capacity, 64 senders ≥ 75,000 msgs/s", cpu64 == null ? null : 1_000_000 / cpu64, 75_000,
                "msgs/s");
        atMostRatio("stream Redis CPU/msg, 64 senders ≤ 3× raw streams",
                median("component stream plain c=8 p=100 s=64", "none", "cpuUsPerMsg"),
                median("streams c=8 s=64", "none", "cpuUsPerMsg"), 3, "µs");
        for (String mode : List.of("list", "stream")) {
            String label = "component " + mode + " plain c=8 p=100";
            Double perClaim = median(label, "none", "msgsPerNonEmptyClaimCall");
            Double perEnqueue = median(label, "none", "msgsPerEnqueueCall");
            if (perClaim == null || perEnqueue == null) {
                md.append("| ").append(mode).append(", 8 senders: messages per non-empty claim ≥ per enqueue call")
                  .append(" | not measured | – |\n");
            } else {
                md.append("| ").append(mode).append(", 8 senders: messages per non-empty claim ≥ per enqueue call | ")
                  .append(fmt(perClaim, 1)).append(" vs ").append(fmt(perEnqueue, 1)).append(" | ")
                  .append(perClaim >= perEnqueue ? "yes" : "**no**").append(" |\n");
            }
            for (int perPoll : SWEEP_PER_POLL) {
                Double one = sweepPoint(mode, 1, perPoll);
                Double eight = sweepPoint(mode, 8, perPoll);
                if (one != null && eight != null) {
                    md.append("| ").append(mode).append(" sweep, p=").append(perPoll)
                      .append(": 8 consumer threads move ≥ 1 | ").append(fmt(eight, 0)).append(" vs ")
                      .append(fmt(one, 0)).append(" msgs/s | ").append(eight >= one ? "yes" : "**no**")
                      .append(" |\n");
                }
            }
        }
        Double rate64 = median(list64, "none", "msgsPerSec");
        ratioTarget("list throughput, 64 senders ≥ 0.9× batched", rate64,
                median(batched + " s=64", "none", "msgsPerSec"), 0.9);
        ratioTarget("list throughput, 64 senders ≥ 1.8× seed", rate64, median("seed c=8 s=64", "none", "msgsPerSec"),
                1.8);
        ratioTarget("list throughput, 64 senders ≥ 1.5× BullMQ", rate64,
                median("bullmq c=8 s=64", "none", "msgsPerSec"), 1.5);
        ratioTarget("list throughput, 8 senders ≥ 1.0× seed", median(list, "none", "msgsPerSec"),
                median("seed c=8", "none", "msgsPerSec"), 1.0);
        atMostRatio("list JVM CPU/msg, 64 senders ≤ 1.2× batched", median(list64, "none", "clientCpuUsPerMsg"),
                median(batched + " s=64", "none", "clientCpuUsPerMsg"), 1.2, "µs");
        for (String mode : List.of("list", "stream")) {
            String label = "component " + mode + " plain c=8 p=100";
            Double floor50 = median("ceiling", "none", "idleP50");
            Double floor99 = median("ceiling", "none", "idleP99");
            Double p50 = median(label, "none", "idleP50");
            Double p99 = median(label, "none", "idleP99");
            atMost(mode + " idle p50 ≤ 2× floor", p50 == null || floor50 == null ? null : p50 / floor50, 2, "×");
            atMost(mode + " idle p99 ≤ 1.5× floor", p99 == null || floor99 == null ? null : p99 / floor99, 1.5,
                    "×");
        }
        double lost = results.stream().mapToDouble(r -> value(r, "lost") + value(r, "drainLost")
                                                         + value(r, "loadedLost")).sum();
        double duplicated = results.stream().mapToDouble(r -> value(r, "duplicates") + value(r, "drainDuplicates"))
                .sum();
        atMost("every run: lost 0", lost, 0, "lost");
        atMost("every run: duplicated 0", duplicated, 0, "duplicated");
        md.append("\n");
    }

    private Double drain(String label, String field) {
        return medianOf(r -> r.get("label").equals(label), field);
    }

    private void atMostRatio(String name, Double value, Double base, double limit, String unit) {
        if (value == null || base == null) {
            md.append("| ").append(name).append(" | not measured | – |\n");
            return;
        }
        double ratio = value / base;
        md.append("| ").append(name).append(" | ").append(fmt(ratio, 2)).append("× (").append(fmt(value, 1))
          .append(" vs ").append(fmt(base, 1)).append(' ').append(unit).append(") | ")
          .append(ratio <= limit ? "yes" : "**no**").append(" |\n");
    }

    private void atLeast(String name, Double value, double limit, String unit) {
        if (value == null) {
            md.append("| ").append(name).append(" | not measured | – |\n");
            return;
        }
        md.append("| ").append(name).append(" | ").append(fmt(value, 0)).append(' ').append(unit).append(" | ")
          .append(value >= limit ? "yes" : "**no**").append(" |\n");
    }

    private static double value(Map<String, Object> r, String field) {
        Double value = number(r, field);
        return value == null ? 0 : value;
    }

    private void ratioTarget(String name, Double value, Double base, double atLeast) {
        if (value == null || base == null) {
            md.append("| ").append(name).append(" | not measured | – |\n");
            return;
        }
        double ratio = value / base;
        md.append("| ").append(name).append(" | ").append(fmt(ratio, 2)).append("× (").append(fmt(value, 0))
          .append(" vs ").append(fmt(base, 0)).append(" msgs/s) | ").append(ratio >= atLeast ? "yes" : "**no**")
          .append(" |\n");
    }

    private void atMost(String name, Double value, double limit, String unit) {
        if (value == null) {
            md.append("| ").append(name).append(" | not measured | – |\n");
            return;
        }
        md.append("| ").append(name).append(" | ").append(fmt(value, 2)).append(' ').append(unit).append(" | ")
          .append(value <= limit ? "yes" : "**no**").append(" |\n");
    }

    private void sweep() {
        md.append("## The component over concurrentConsumers × maxMessagesPerPoll (msgs/s)\n\n").append(sweepMessages)
          .append(" messages per run, 8 plain senders.\n\n")
          .append("![throughput by consumers](performance/throughput-by-consumers.png)\n\n");
        for (String mode : List.of("list", "stream")) {
            md.append("**").append(mode).append("**\n\n| consumers");
            SWEEP_PER_POLL.forEach(perPoll -> md.append(" | p=").append(perPoll));
            md.append(" |\n|---:").append("|---:".repeat(SWEEP_PER_POLL.size())).append("|\n");
            for (int consumers : SWEEP_CONSUMERS) {
                md.append("| ").append(consumers);
                for (int perPoll : SWEEP_PER_POLL) {
                    md.append(" | ").append(fmt(sweepPoint(mode, consumers, perPoll), 0));
                }
                md.append(" |\n");
            }
            md.append("\n");
        }
    }

    Double sweepPoint(String mode, int consumers, int perPoll) {
        String label = "component " + mode + " plain c=" + consumers + " p=" + perPoll;
        return medianOf(r -> r.get("label").equals(label) && intSpec(r, "messages") == sweepMessages
                             && spec(r, "redis").equals("none"), "msgsPerSec");
    }

    /** The loaded-latency histograms of a contender, merged over the rounds. */
    Histogram loadedHistogram(String label) {
        Histogram merged = null;
        for (Map<String, Object> r : results) {
            if (r.get("label").equals(label) && r.get("loadedHistogram") instanceof String encoded) {
                Histogram h = Histograms.decode(encoded);
                if (merged == null) {
                    merged = h;
                } else {
                    merged.add(h);
                }
            }
        }
        return merged;
    }

    private List<String> labels(Predicate<Map<String, Object>> filter) {
        List<String> labels = new ArrayList<>();
        for (Map<String, Object> r : results) {
            String label = (String) r.get("label");
            if (filter.test(r) && !labels.contains(label)) {
                labels.add(label);
            }
        }
        return labels;
    }

    private Double median(String label, String redis, String field) {
        return medianOf(r -> r.get("label").equals(label) && spec(r, "redis").equals(redis)
                             && (field.startsWith("idle") || field.startsWith("loaded")
                                 || intSpec(r, "messages") == messages), field);
    }

    private Double medianOf(Predicate<Map<String, Object>> filter, String field) {
        List<Double> values = results.stream().filter(filter).map(r -> number(r, field)).filter(Objects::nonNull)
                .sorted(Comparator.naturalOrder()).toList();
        if (values.isEmpty()) {
            return null;
        }
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private Double sumOf(Predicate<Map<String, Object>> filter, String field) {
        return results.stream().filter(filter).map(r -> number(r, field)).filter(Objects::nonNull)
                .reduce(Double::sum).orElse(null);
    }

    private Double sum(String label, String redis, String field) {
        return results.stream().filter(r -> r.get("label").equals(label) && spec(r, "redis").equals(redis)
                                            && intSpec(r, "messages") == messages)
                .map(r -> number(r, field)).filter(Objects::nonNull).reduce(Double::sum).orElse(null);
    }

    private static Double number(Map<String, Object> r, String field) {
        return r.get(field) instanceof Number n ? n.doubleValue() : null;
    }

    @SuppressWarnings("unchecked")
    private static String spec(Map<String, Object> r, String field) {
        return String.valueOf(((Map<String, Object>) r.get("spec")).get(field));
    }

    /** The build a result ran: "" for this one, and for the results of runs from before builds were told apart. */
    @SuppressWarnings("unchecked")
    private static String build(Map<String, Object> r) {
        return Objects.toString(((Map<String, Object>) r.get("spec")).get("build"), "");
    }

    private static int intSpec(Map<String, Object> r, String field) {
        return Integer.parseInt(spec(r, field));
    }

    private static String fmt(Double value, int decimals) {
        if (value == null) {
            return "–";
        }
        return decimals == 0 ? String.format(Locale.ROOT, "%,d", Math.round(value))
                : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** The loaded-latency chart's lines; not the floor, whose one-RPUSH-per-message senders cannot keep up there. */
    static Map<String, String> latencySeries() {
        Map<String, String> series = new LinkedHashMap<>();
        series.put("component list", "component list plain c=8 p=100");
        series.put("component stream", "component stream plain c=8 p=100");
        series.put("raw streams", "streams c=8");
        series.put("camel-spring-rabbitmq", "rabbitmq c=8");
        return series;
    }
}
