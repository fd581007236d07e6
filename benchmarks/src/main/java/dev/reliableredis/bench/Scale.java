package dev.reliableredis.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.Lease;
import dev.reliableredis.queue.MessageIds;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.ReapResult;
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
 * Redis memory per message in each state (and queued with a time to live, a priority or a FIFO group), and
 * housekeeping under a backlog: how long Redis is blocked by one reaper call (from SLOWLOG, which records every
 * command's own run time when its threshold is 0) and how long the whole backlog takes, with a million expired
 * leases, due delayed messages and acked ids past their window. Writes its section of docs/performance.md.
 * Settings: {@code scale.messages} (1000000), {@code scale.memoryMessages} (100000).
 */
public final class Scale {

    private static final int BATCH = 500;
    private static final Duration SHORT = Duration.ofMillis(1);
    /** The time to live of the memory figures' messages that have one: an hour, as the throughput benchmark's. */
    private static final long TIME_TO_LIVE_MS = 3_600_000;
    /** The memory figures' FIFO groups: as many as the throughput benchmark's grouped run has. */
    private static final int GROUPS = 10_000;

    private final int messages = Integer.getInteger("scale.messages", 1_000_000);
    private final int memoryMessages = Integer.getInteger("scale.memoryMessages", 100_000);
    private final StringBuilder md = new StringBuilder();
    private RedisProcess redis;
    private RedisCommands<String, String> raw;
    private RedisGateway gateway;

    public static void main(String[] args) throws Exception {
        new Scale().run();
        System.exit(0);
    }

    private void run() throws Exception {
        ClientResources resources = RedisGateway.newClientResources();
        try (RedisProcess server = RedisProcess.start()) {
            redis = server;
            raw = server.commands();
            gateway = RedisGateway.create(resources, RedisURI.create(server.uri()), Duration.ofSeconds(60));
            md.append("Written by `benchmarks/run-scale` on ").append(java.time.LocalDate.now()).append(" (")
              .append(Machine.describe()).append(", Redis ").append(RedisVersion.of(server.uri())).append(").\n\n");
            memory();
            housekeeping();
            gateway.close();
        } finally {
            resources.shutdown();
        }
        DocSection.write(Path.of(System.getProperty("bench.docs", "docs")).resolve("performance.md"),
                "memory and housekeeping results", "benchmarks/run-scale", md.toString());
        System.out.print(md);
    }

    private ReliableQueue queue(String mode, QueueSettings settings, String consumer) {
        return mode.equals("list") ? ListQueue.of(gateway, "rr", "scale", settings)
                : StreamQueue.of(gateway, "rr", "scale", new StreamOptions(null, null, "g", "0", consumer, 0, true),
                        settings);
    }

    private static QueueSettings settings(Duration visibility, int maxRetries, Duration window, int reaperBatch) {
        return QueueSettings.builder().visibilityTimeout(visibility).maxRetries(maxRetries).retryDelay(Duration.ZERO)
                .retryBackoffMultiplier(1.0).maxRetryDelay(Duration.ZERO).reaperBatchSize(reaperBatch)
                .idempotencyWindow(window).build();
    }

    /** Bytes of Redis memory per message, in each state, for 100-byte bodies and the producer's UUID ids. */
    private void memory() throws InterruptedException {
        md.append("### Redis memory per message\n\n").append(memoryMessages).append(" messages of 100 bytes with ")
          .append("the producer's 22-character ids, no headers; `used_memory` before and after, divided by")
          .append(" the count. The last three rows are queued messages with one of issue 20's features on: a time")
          .append(" to live of an hour; priority 9 (a message of the default 4 is the first row); a FIFO group,")
          .append(" message i in group `g<i mod ").append(count(GROUPS)).append(">` as in the throughput")
          .append(" benchmark's grouped run, so that ").append(count(Math.min(GROUPS, memoryMessages)))
          .append(" are their group's current message, ready, and ").append(count(Math.max(0, memoryMessages - GROUPS)))
          .append(" wait in their group's line. Stream mode refuses priorities and groups.\n\n")
          .append("| state | list mode | stream mode |\n|---|---:|---:|\n");
        String[] rows = {"queued (ready)", "acked, id remembered for the idempotency window", "dead letter",
                         "after the idempotency window has passed and the reaper ran"};
        long[][] bytes = new long[2][];
        String[] modes = {"list", "stream"};
        for (int m = 0; m < 2; m++) {
            bytes[m] = memoryOf(modes[m]);
        }
        for (int r = 0; r < rows.length; r++) {
            md.append("| ").append(rows[r]).append(" | ").append(bytes[0][r]).append(" | ").append(bytes[1][r])
              .append(" |\n");
        }
        md.append("| queued with a time to live (1 hour) | ")
          .append(queuedBytes("list", i -> new NewMessage(MessageIds.newId(), Bodies.of(i), null, 0, null,
                  TIME_TO_LIVE_MS))).append(" | ")
          .append(queuedBytes("stream", i -> new NewMessage(MessageIds.newId(), Bodies.of(i), null, 0, null,
                  TIME_TO_LIVE_MS))).append(" |\n");
        md.append("| queued with a priority (9) | ")
          .append(queuedBytes("list", i -> new NewMessage(MessageIds.newId(), Bodies.of(i), null, 0, null, 0, 9)))
          .append(" | refused |\n");
        md.append("| queued in a FIFO group (").append(count(GROUPS)).append(" groups) | ")
          .append(queuedBytes("list", i -> new NewMessage(MessageIds.newId(), Bodies.of(i), null, 0, null, 0,
                  NewMessage.DEFAULT_PRIORITY, "g" + i % GROUPS))).append(" | refused |\n");
        md.append("\n");
    }

    /** Bytes per queued message, message i made by the given function. */
    private long queuedBytes(String mode, IntFunction<NewMessage> message) {
        ReliableQueue q = queue(mode, settings(Duration.ofMinutes(5), 0, Duration.ofSeconds(2), 1000), "c1");
        raw.flushall();
        long base = usedMemory();
        enqueue(q, memoryMessages, message);
        long bytes = (usedMemory() - base) / memoryMessages;
        raw.flushall();
        return bytes;
    }

    private long[] memoryOf(String mode) throws InterruptedException {
        long[] out = new long[4];
        ReliableQueue q = queue(mode, settings(Duration.ofMinutes(5), 0, Duration.ofSeconds(2), 1000), "c1");
        raw.flushall();
        long base = usedMemory();
        enqueue(q, memoryMessages, 0);
        out[0] = (usedMemory() - base) / memoryMessages;
        settleAll(q, memoryMessages, leases -> q.ack(leases));
        out[1] = (usedMemory() - base) / memoryMessages;
        TimeUnit.MILLISECONDS.sleep(2_100);
        reapAll(q);
        out[3] = Math.max(0, usedMemory() - base) / memoryMessages;
        raw.flushall();
        base = usedMemory();
        enqueue(q, memoryMessages, 0);
        settleAll(q, memoryMessages, leases -> q.nack(leases.stream().map(l -> new Failure(l, "boom")).toList()));
        out[2] = (usedMemory() - base) / memoryMessages;
        raw.flushall();
        return out;
    }

    /** A million of each backlog, reaped with the default reaperBatchSize (100) and with 1000. */
    private void housekeeping() throws InterruptedException {
        md.append("### Housekeeping under a backlog\n\n").append(String.format(Locale.ROOT, "%,d", messages))
          .append(" entries of each kind, then reaper calls until none is left. Longest call: the longest run time")
          .append(" SLOWLOG recorded for one reaper call (threshold 0, so every call is recorded); Redis serves")
          .append(" nothing else while a script runs.\n\n")
          .append("| mode | backlog | reaperBatchSize | reaper calls | longest call (ms) | median call (ms) |")
          .append(" whole backlog (s) |\n|---|---|---:|---:|---:|---:|---:|\n");
        for (String mode : List.of("list", "stream")) {
            for (int batch : List.of(100, 1000)) {
                expiredLeases(mode, batch);
                dueDelayed(mode, batch);
                forgottenIds(mode, batch);
            }
        }
        md.append("\n");
    }

    private void expiredLeases(String mode, int batch) throws InterruptedException {
        raw.flushall();
        ReliableQueue q = queue(mode, settings(SHORT, 3, Duration.ZERO, batch), "dead-consumer");
        enqueue(q, messages, 0);
        claimAll(q, messages);
        TimeUnit.MILLISECONDS.sleep(50);
        measureReap(mode, "expired leases", batch, queue(mode, settings(SHORT, 3, Duration.ZERO, batch), "alive"));
    }

    private void dueDelayed(String mode, int batch) throws InterruptedException {
        raw.flushall();
        ReliableQueue q = queue(mode, settings(Duration.ofMinutes(5), 3, Duration.ZERO, batch), "c1");
        enqueue(q, messages, 1);
        TimeUnit.MILLISECONDS.sleep(50);
        measureReap(mode, "due delayed messages", batch, q);
    }

    private void forgottenIds(String mode, int batch) throws InterruptedException {
        raw.flushall();
        ReliableQueue q = queue(mode, settings(Duration.ofMinutes(5), 3, SHORT, batch), "c1");
        enqueue(q, messages, 0);
        settleAll(q, messages, leases -> q.ack(leases));
        TimeUnit.MILLISECONDS.sleep(50);
        measureReap(mode, "acked ids past their window", batch, q);
    }

    private void measureReap(String mode, String backlog, int batch, ReliableQueue q) {
        raw.configSet("slowlog-max-len", "1000000");
        raw.configSet("slowlog-log-slower-than", "0");
        raw.slowlogReset();
        long start = System.nanoTime();
        int calls = 0;
        ReapResult result;
        do {
            result = q.reap();
            calls++;
        } while (result.more());
        double seconds = (System.nanoTime() - start) / 1e9;
        raw.configSet("slowlog-log-slower-than", "10000");
        List<Long> micros = new ArrayList<>();
        for (Object entry : raw.slowlogGet(-1)) {
            List<?> fields = (List<?>) entry;
            List<?> command = (List<?>) fields.get(3);
            if (String.valueOf(command.get(0)).toLowerCase(Locale.ROOT).startsWith("eval")) {
                micros.add((Long) fields.get(2));
            }
        }
        micros.sort(null);
        raw.slowlogReset();
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %,d | %.2f | %.2f | %.1f |%n", mode, backlog, batch,
                calls, micros.isEmpty() ? 0 : micros.get(micros.size() - 1) / 1000.0,
                micros.isEmpty() ? 0 : micros.get(micros.size() / 2) / 1000.0, seconds));
        System.out.println(mode + " " + backlog + " batch " + batch + ": " + calls + " calls, " + seconds + " s");
    }

    private static void enqueue(ReliableQueue q, int count, long delayMs) {
        enqueue(q, count, i -> new NewMessage(MessageIds.newId(), Bodies.of(i), null, delayMs));
    }

    private static void enqueue(ReliableQueue q, int count, IntFunction<NewMessage> message) {
        List<NewMessage> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < count; i++) {
            batch.add(message.apply(i));
            if (batch.size() == BATCH || i == count - 1) {
                q.enqueue(batch);
                batch.clear();
            }
        }
    }

    private static void claimAll(ReliableQueue q, int count) {
        for (int claimed = 0; claimed < count; ) {
            int n = q.claim(1000).size();
            if (n == 0) {
                throw new IllegalStateException("Only " + claimed + " of " + count + " could be claimed");
            }
            claimed += n;
        }
    }

    private static void settleAll(ReliableQueue q, int count, Function<List<Lease>, ?> settle) {
        for (int settled = 0; settled < count; ) {
            List<Delivery> claimed = q.claim(1000);
            if (claimed.isEmpty()) {
                throw new IllegalStateException("Only " + settled + " of " + count + " could be claimed");
            }
            settle.apply(claimed.stream().map(Delivery::lease).toList());
            settled += claimed.size();
        }
    }

    private static void reapAll(ReliableQueue q) {
        while (q.reap().more()) {
            Thread.onSpinWait();
        }
    }

    private static String count(int n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private long usedMemory() {
        for (String line : raw.info("memory").split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }
}
