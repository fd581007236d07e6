package dev.reliableredis.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.camel.ReliableRedisConstants;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.Range;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A soak run: a real redis-server with AOF, consumer JVMs, producers in this JVM, and faults injected on a
 * schedule while messages flow. The ledger outside the system under test (what Redis acknowledged to the
 * producers, what the consumers wrote down) decides what was lost.
 */
public final class Soak {

    private static final int PRODUCER_THREADS = 4;

    private final SoakConfig config;
    private final Set<String> enqueued = ConcurrentHashMap.newKeySet();

    private Soak(SoakConfig config) {
        this.config = config;
    }

    public static SoakReport run(SoakConfig config) throws Exception {
        return new Soak(config).run();
    }

    private SoakReport run() throws Exception {
        long started = System.currentTimeMillis();
        Path dir = Files.createTempDirectory("soak-" + config.mode());
        try (RedisProcess redis = RedisProcess.start("--appendonly", "yes", "--appendfsync", config.appendfsync(),
                "--dir", dir.toString())) {
            List<Path> ledgers = new ArrayList<>();
            List<ConsumerJvm> consumers = new ArrayList<>();
            for (int i = 0; i < config.consumerJvms(); i++) {
                ledgers.add(dir.resolve("ledger-" + i + ".txt"));
                consumers.add(new ConsumerJvm(redis.uri(), config, ledgers.get(i), dir.resolve("consumer-" + i + ".log")));
                consumers.get(i).start();
            }
            FaultInjector faults = new FaultInjector(redis, consumers, config.visibilityMs());
            StallWatch stalls = new StallWatch(redis.uri(), config.visibilityMs() / 2);
            CamelContext camel = new DefaultCamelContext();
            camel.getComponent("reliable-redis", ReliableRedisComponent.class).setRedisUri(redis.uri());
            camel.start();
            try {
                produceWhileInjectingFaults(camel.createProducerTemplate(), faults);
                awaitDrained(redis, started);
            } finally {
                stalls.close();
                camel.stop();
                for (ConsumerJvm consumer : consumers) {
                    consumer.stop();
                }
            }
            SoakReport report = report(Ledger.read(ledgers), deadLettered(redis.commands()), faults, stalls.stalls(),
                    started);
            if (report.lost() == 0 && report.unexplainedDuplicates() == 0) {
                deleteRecursively(dir);
            } else {
                System.out.println("soak: ledgers, AOF and logs kept in " + dir);
            }
            return report;
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void produceWhileInjectingFaults(ProducerTemplate producer, FaultInjector faults) throws Exception {
        // spread the messages over at least one round of every fault
        double perSecond = Math.max(200, config.messages() / (config.faultEveryMs() * 6 / 1000.0));
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCER_THREADS);
        List<Future<?>> running = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < PRODUCER_THREADS; t++) {
            int first = t;
            running.add(producers.submit(() -> {
                for (int n = first; n < config.messages(); n += PRODUCER_THREADS) {
                    long due = start + (long) (n / perSecond * 1e9);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    enqueue(producer, "m-" + n);
                }
                return null;
            }));
        }
        producers.shutdown();
        while (!producers.isTerminated() || !faults.everyKindInjected()) {
            producers.awaitTermination(config.faultEveryMs(), TimeUnit.MILLISECONDS);
            if (!producers.isTerminated() || !faults.everyKindInjected()) {
                faults.injectNext();
            }
        }
        for (Future<?> f : running) {
            f.get();
        }
    }

    /** Sends until Redis acknowledges, as an application that must not drop an order would. */
    private void enqueue(ProducerTemplate producer, String id) throws InterruptedException {
        while (true) {
            Exchange sent = producer.request(config.endpoint(), e -> {
                e.getMessage().setBody("order " + id);
                e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
            });
            if (sent.getException() == null) {
                enqueued.add(id);
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** Until nothing is ready, in flight or delayed, twice in a row; or the run's time is up. */
    private void awaitDrained(RedisProcess redis, long started) throws InterruptedException {
        int emptyChecks = 0;
        while (emptyChecks < 2 && System.currentTimeMillis() - started < config.timeoutMs()) {
            TimeUnit.SECONDS.sleep(1);
            try {
                emptyChecks = remaining(redis.commands()) == 0 ? emptyChecks + 1 : 0;
            } catch (RuntimeException e) {
                emptyChecks = 0;
            }
        }
    }

    private long remaining(RedisCommands<String, String> redis) {
        if ("stream".equals(config.mode())) {
            long pending = redis.exists("rr:{soak}:stream") == 0 ? 0
                    : redis.xinfoGroups("rr:{soak}:stream").isEmpty() ? redis.xlen("rr:{soak}:stream")
                            : redis.xpending("rr:{soak}:stream", "camel").getCount();
            long unread = redis.exists("rr:{soak}:stream") == 0 ? 0
                    : redis.xlen("rr:{soak}:stream") - pending;
            return pending + Math.max(0, unread) + redis.zcard("rr:{soak}:delayed");
        }
        return redis.llen("rr:{soak}:ready") + redis.zcard("rr:{soak}:inflight") + redis.zcard("rr:{soak}:delayed");
    }

    private Set<String> deadLettered(RedisCommands<String, String> redis) {
        if ("stream".equals(config.mode())) {
            Set<String> ids = new HashSet<>();
            redis.xrange("rr:{soak}:dead", Range.create("-", "+")).forEach(e -> ids.add(e.getBody().get("id")));
            return ids;
        }
        return new HashSet<>(redis.zrange("rr:{soak}:dead", 0, -1));
    }

    private SoakReport report(Ledger ledger, Set<String> dead, FaultInjector faults, List<StallWatch.Stall> stalls,
            long started) {
        Map<Fault, Long> faultCounts = new EnumMap<>(Fault.class);
        faults.injected().forEach(f -> faultCounts.merge(f.fault(), 1L, Long::sum));
        long lost = enqueued.stream().filter(id -> !ledger.done.containsKey(id) && !dead.contains(id)).count();
        long duplicates = 0;
        long unexplained = 0;
        for (Map.Entry<String, List<Ledger.Done>> entry : ledger.done.entrySet()) {
            List<Ledger.Done> done = entry.getValue();
            done.sort(Comparator.comparingLong(Ledger.Done::at));
            for (int i = 1; i < done.size(); i++) {
                duplicates++;
                if (!explained(ledger.startOf(entry.getKey(), done.get(i - 1)), done.get(i).at(), faults.injected(),
                        stalls)) {
                    unexplained++;
                    System.out.printf("soak: duplicate of %s not explained by a fault: %s%n", entry.getKey(), done);
                }
            }
        }
        faults.injected().forEach(f -> System.out.printf("soak: fault %s%n", f));
        stalls.forEach(stall -> System.out.printf("soak: stall %s%n", stall));
        TreeMap<Integer, Long> deliveries = new TreeMap<>();
        ledger.mostDeliveries.values().forEach(n -> deliveries.merge(n, 1L, Long::sum));
        return new SoakReport(config, faultCounts, enqueued.size(), ledger.done.size(), dead.size(), lost,
                ledger.attempts, duplicates, unexplained, stalls.size(), deliveries,
                (System.currentTimeMillis() - started) / 1000);
    }

    /**
     * A second processing is explained by a fault that could lose an ack or a lease between the two, or by a stall
     * of Redis or of the machine no fault injected.
     */
    private static boolean explained(long first, long second, List<FaultInjector.Injected> faults,
            List<StallWatch.Stall> stalls) {
        return faults.stream().anyMatch(f -> f.fault().canDuplicate() && f.startedAt() <= second
                                            && f.endedAt() >= first - 1_000)
               || stalls.stream().anyMatch(s -> s.startedAt() <= second && s.endedAt() >= first - 1_000);
    }
}
