package dev.reliableredis.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.MessageIds;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.sharded.ShardedQueue;
import dev.reliableredis.queue.stream.StreamOptions;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisCluster;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;

/**
 * One queue with shards=3 on a local Redis Cluster of one master and on one of three masters, side by side in each
 * round: how fast messages are enqueued, and then claimed and acked, and how much CPU each master spent. The queue's
 * name is chosen so that its three shards are on three different masters of the larger cluster. Writes its section
 * of docs/performance.md. Settings: {@code shards.rounds} (5), {@code shards.messages} (50000 per run).
 */
public final class Shards {

    private static final int SHARDS = 3;
    private static final int BATCH = 100;
    private static final int PRODUCERS = 4;
    private static final int CONSUMERS = 4;
    private static final int CLAIM = 50;

    private final int rounds = Integer.getInteger("shards.rounds", 5);
    private final int messages = Integer.getInteger("shards.messages", 50_000);
    private final byte[] body = new byte[100];

    public static void main(String[] args) throws Exception {
        new Shards().run();
        System.exit(0);
    }

    /** One run's figures: rates in msgs/s, and each master's CPU in µs per message for both phases together. */
    record Result(double enqueueRate, double consumeRate, List<Double> cpuPerMaster) {
    }

    private void run() throws Exception {
        ClientResources resources = RedisGateway.newClientResources();
        Map<String, List<Result>> results = new TreeMap<>();
        try (RedisCluster one = RedisCluster.start(1); RedisCluster three = RedisCluster.start(3)) {
            String queue = IntStream.range(0, 10_000).mapToObj(i -> "bench" + i)
                    .filter(name -> onDistinctMasters(three, name)).findFirst().orElseThrow();
            for (String mode : List.of("list", "stream")) {
                // not counted: the JVM compiles the hot paths while it runs
                runOnce(resources, three, queue, mode);
            }
            for (int round = 1; round <= rounds; round++) {
                for (String mode : List.of("list", "stream")) {
                    // each cluster goes first in every other round, so that neither always meets a warmer machine
                    for (RedisCluster cluster : round % 2 == 1 ? List.of(one, three) : List.of(three, one)) {
                        Result result = runOnce(resources, cluster, queue, mode);
                        String label = mode + "|" + cluster.masters().size();
                        results.computeIfAbsent(label, k -> new ArrayList<>()).add(result);
                        System.out.printf(Locale.ROOT, "round %d %s on %d master(s): %s%n", round, mode,
                                cluster.masters().size(), result);
                    }
                }
            }
            String md = report(results, queue, RedisVersion.of(one.masters().get(0).uri()));
            DocSection.write(Path.of(System.getProperty("bench.docs", "docs")).resolve("performance.md"),
                    "sharded queue results", "benchmarks/run-shards", md);
            System.out.print(md);
        } finally {
            resources.shutdown();
        }
    }

    private static boolean onDistinctMasters(RedisCluster cluster, String queue) {
        return IntStream.range(0, SHARDS).mapToObj(i -> cluster.masterOf("{" + QueueNames.shard(queue, i) + "}"))
                .distinct().count() == SHARDS;
    }

    private Result runOnce(ClientResources resources, RedisCluster cluster, String name, String mode)
            throws Exception {
        cluster.commands().flushall();
        List<RedisURI> seeds = cluster.masters().stream().map(m -> RedisURI.create(m.uri())).toList();
        RedisGateway gateway = RedisGateway.createCluster(resources, seeds, null, Duration.ofSeconds(30));
        QueueSettings settings = QueueSettings.defaults();
        StreamOptions options = new StreamOptions(null, null, "bench", "0", "c1", 0, true);
        ReliableQueue queue = ShardedQueue.of(name, SHARDS, i -> mode.equals("list")
                ? ListQueue.of(gateway, "rr", QueueNames.shard(name, i), settings)
                : StreamQueue.of(gateway, "rr", QueueNames.shard(name, i), options, settings));
        List<RedisInfo> masters = cluster.masters().stream().map(m -> new RedisInfo(m.uri())).toList();
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(PRODUCERS, CONSUMERS));
        try {
            List<Long> cpuBefore = masters.stream().map(RedisInfo::cpuMicros).toList();
            long start = System.nanoTime();
            enqueueAll(queue, threads);
            long enqueued = System.nanoTime();
            consumeAll(queue, threads);
            long consumed = System.nanoTime();
            List<Double> cpu = IntStream.range(0, masters.size())
                    .mapToObj(i -> (masters.get(i).cpuMicros() - cpuBefore.get(i)) / (double) messages).toList();
            return new Result(messages / ((enqueued - start) / 1e9), messages / ((consumed - enqueued) / 1e9), cpu);
        } finally {
            threads.shutdownNow();
            masters.forEach(RedisInfo::close);
            gateway.close();
        }
    }

    /** PRODUCERS threads, each with a few batches under way at once, as the component's producer sends. */
    private void enqueueAll(ReliableQueue queue, ExecutorService threads) throws Exception {
        AtomicInteger left = new AtomicInteger(messages / BATCH);
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            producers.add(threads.submit(() -> {
                List<CompletableFuture<List<Boolean>>> underWay = new ArrayList<>();
                while (left.getAndDecrement() > 0) {
                    List<NewMessage> batch = IntStream.range(0, BATCH)
                            .mapToObj(i -> new NewMessage(MessageIds.newId(), body, Map.of(), 0)).toList();
                    underWay.add(queue.enqueueAsync(batch));
                    if (underWay.size() == 4) {
                        underWay.remove(0).join();
                    }
                }
                underWay.forEach(CompletableFuture::join);
                return null;
            }));
        }
        for (Future<?> producer : producers) {
            producer.get();
        }
    }

    /** CONSUMERS threads claiming and acking until every message is acked. */
    private void consumeAll(ReliableQueue queue, ExecutorService threads) throws Exception {
        AtomicInteger acked = new AtomicInteger();
        List<Future<?>> consumers = new ArrayList<>();
        for (int c = 0; c < CONSUMERS; c++) {
            consumers.add(threads.submit(() -> {
                while (acked.get() < messages) {
                    List<Delivery> claimed = queue.claim(CLAIM);
                    if (!claimed.isEmpty()) {
                        queue.ack(claimed.stream().map(Delivery::lease).toList());
                        acked.addAndGet(claimed.size());
                    }
                }
                return null;
            }));
        }
        for (Future<?> consumer : consumers) {
            consumer.get();
        }
        if (acked.get() != messages) {
            throw new IllegalStateException("acked " + acked.get() + " of " + messages);
        }
    }

    private String report(Map<String, List<Result>> results, String queue, String redisVersion) {
        StringBuilder md = new StringBuilder();
        md.append("Written by `benchmarks/run-shards` on ").append(java.time.LocalDate.now()).append(" (")
          .append(Machine.describe()).append(", Redis ").append(redisVersion).append("): queue `").append(queue)
          .append("` with shards=3, whose shards are on three different masters of the 3-master cluster; ")
          .append(rounds).append(" rounds after a warm-up run, both clusters in each, in alternating order; ").append(messages)
          .append(" messages of 100 bytes per run, enqueued by ").append(PRODUCERS).append(" threads in batches of ")
          .append(BATCH).append(", then claimed (").append(CLAIM).append(" per claim) and acked by ")
          .append(CONSUMERS).append(" threads; every figure is the median over the rounds.\n\n")
          .append("| mode | masters | enqueue msgs/s | claim+ack msgs/s | Redis CPU µs/msg, per master |\n")
          .append("|---|---|---|---|---|\n");
        for (String mode : List.of("list", "stream")) {
            for (int masters : List.of(1, 3)) {
                List<Result> runs = results.get(mode + "|" + masters);
                List<String> cpu = new ArrayList<>();
                for (int i = 0; i < masters; i++) {
                    int master = i;
                    cpu.add(String.format(Locale.ROOT, "%.1f", median(runs.stream()
                            .map(r -> r.cpuPerMaster().get(master)).toList())));
                }
                md.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %s |%n", mode, masters,
                        median(runs.stream().map(Result::enqueueRate).toList()),
                        median(runs.stream().map(Result::consumeRate).toList()), String.join(" / ", cpu)));
            }
        }
        md.append("\n| mode | enqueue, 3 masters ÷ 1 | claim+ack, 3 masters ÷ 1 |\n|---|---|---|\n");
        for (String mode : List.of("list", "stream")) {
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f |%n", mode,
                    ratio(results, mode, Result::enqueueRate), ratio(results, mode, Result::consumeRate)));
        }
        return md.toString();
    }

    private static double ratio(Map<String, List<Result>> results, String mode,
            java.util.function.ToDoubleFunction<Result> rate) {
        return median(results.get(mode + "|3").stream().map(rate::applyAsDouble).toList())
               / median(results.get(mode + "|1").stream().map(rate::applyAsDouble).toList());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
