package dev.reliableredis.camel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.ToLongFunction;

import dev.reliableredis.testsupport.RedisProcess;
import dev.reliableredis.testsupport.SentinelGroup;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.awaitility.Awaitility.await;

/**
 * Measures the loss window of a Sentinel failover: senders enqueue N messages at full speed (each retried with its
 * deduplication id until Redis acknowledges it) while a consumer acks them; the master is SIGKILLed once half are
 * acknowledged; once the Sentinel has promoted the replica, every send has been acknowledged and the new master's queue
 * is drained, the acknowledged sends never delivered are the lost ones. Runs with waitReplicas=0 and 1; with 1, a new
 * replica is attached to the promoted master after the failover, since its sends could not succeed without one.
 *
 * <p>Two scenarios ({@code -Dmeasure.scenario}): {@code kill}, the master dies with its replica in sync; {@code lag},
 * the replica's link is cut {@code measure.lagMillis} (default 200) before the master dies and it cannot reconnect
 * (the master's default user is switched off, which leaves open connections alone), as when a replica lags or is
 * partitioned from its master.
 *
 * <p>Not part of the test run (the class name matches none of surefire's patterns). Run it with
 * {@code mvn -B -q -pl camel-reliable-redis test -Dtest=FailoverLossMeasurement
 * -Dsurefire.failIfNoSpecifiedTests=false} and optionally {@code -Dmeasure.scenario=kill -Dmeasure.messages=20000
 * -Dmeasure.runs=3 -Dmeasure.modes=list,stream -Dmeasure.waitReplicas=0,1}. It writes its table to
 * {@code target/failover-loss-<scenario>.md}.
 */
class FailoverLossMeasurement {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverLossMeasurement.class);
    private static final int SENDERS = 16;
    private static final Duration BOUND = Duration.ofMinutes(2);

    /** One run's figures. */
    record Run(String mode, int waitReplicas, int messages, long sendRate, long ackedBeforeKill, long ackedWhileCut,
            long failoverMs, long lost, long failedSends, long duplicates, long maxDeliveryCount,
            long unreplicatedAcks) {

        String row() {
            return "| " + mode + " | " + waitReplicas + " | " + messages + " | " + sendRate + " | " + ackedBeforeKill
                   + " | " + ackedWhileCut + " | " + failoverMs + " | " + lost + " | " + failedSends + " | "
                   + duplicates + " | " + maxDeliveryCount + " | " + unreplicatedAcks + " |";
        }
    }

    @Test
    void measure() throws Exception {
        String scenario = System.getProperty("measure.scenario", "kill");
        long lagMillis = Long.getLong("measure.lagMillis", 200);
        int messages = Integer.getInteger("measure.messages", 20_000);
        int runs = Integer.getInteger("measure.runs", 3);
        List<String> modes = Arrays.asList(System.getProperty("measure.modes", "list,stream").split(","));
        int[] waits = Arrays.stream(System.getProperty("measure.waitReplicas", "0,1").split(","))
                .mapToInt(Integer::parseInt).toArray();
        List<Run> results = new ArrayList<>();
        StringBuilder table = new StringBuilder("| mode | waitReplicas | messages | sends/s before the kill | acked "
                + "before the kill | of those, while the replica was cut off | failover ms | lost | failed sends "
                + "| duplicates | max delivery count | unreplicated acks |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String mode : modes) {
            for (int waitReplicas : waits) {
                List<Run> same = new ArrayList<>();
                for (int run = 1; run <= runs; run++) {
                    Run result = runOnce(mode, waitReplicas, messages, "lag".equals(scenario) ? lagMillis : -1);
                    LOG.info("Failover run {}: {}", run, result);
                    same.add(result);
                    table.append(result.row()).append('\n');
                }
                results.addAll(same);
                table.append(medians(same).row().replace("| " + mode + " |", "| **median** " + mode + " |"))
                        .append('\n');
            }
        }
        Files.writeString(Path.of("target/failover-loss-" + scenario + ".md"), table);
        LOG.info("Failover loss, scenario {}:\n{}", scenario, table);
    }

    private static Run medians(List<Run> runs) {
        Run first = runs.get(0);
        return new Run(first.mode(), first.waitReplicas(), first.messages(), median(runs, Run::sendRate),
                median(runs, Run::ackedBeforeKill), median(runs, Run::ackedWhileCut), median(runs, Run::failoverMs),
                median(runs, Run::lost),
                median(runs, Run::failedSends), median(runs, Run::duplicates), median(runs, Run::maxDeliveryCount),
                median(runs, Run::unreplicatedAcks));
    }

    private static long median(List<Run> runs, ToLongFunction<Run> figure) {
        long[] sorted = runs.stream().mapToLong(figure).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    /** One run; with lagMillis >= 0, the replica is cut off that long before the master dies. */
    private Run runOnce(String mode, int waitReplicas, int messages, long lagMillis) throws Exception {
        SendLedger ledger = new SendLedger();
        LongAccumulator maxDeliveryCount = new LongAccumulator(Math::max, 0);
        RedisProcess newReplica = null;
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        CamelContext context = new DefaultCamelContext();
        try (SentinelGroup redis = SentinelGroup.start()) {
            try {
                String queue = "reliable-redis:q?mode=" + mode + "&redisUri=" + redis.uri() + "&waitReplicas="
                               + waitReplicas;
                context.addRoutes(new RouteBuilder() {
                    public void configure() {
                        from(queue + "&visibilityTimeout=5000&concurrentConsumers=4&maxMessagesPerPoll=50")
                                .routeId("consumer").process(e -> {
                                    maxDeliveryCount.accumulate(e.getMessage().getHeader(
                                            ReliableRedisConstants.DELIVERY_COUNT, Integer.class));
                                    ledger.received(e.getMessage().getBody(String.class));
                                });
                    }
                });
                context.start();
                ProducerTemplate template = context.createProducerTemplate();
                AtomicInteger permits = new AtomicInteger(messages);
                long start = System.nanoTime();
                for (int i = 0; i < SENDERS; i++) {
                    senders.execute(() -> {
                        while (permits.getAndDecrement() > 0) {
                            sendUntilAcknowledged(template, queue, ledger, ledger.nextId());
                        }
                    });
                }

                await("half the sends acknowledged").atMost(BOUND).pollInterval(Duration.ofMillis(1))
                        .until(() -> ledger.ackedCount() >= messages / 2);
                long ackedAtCut = ledger.ackedCount();
                long sendRate = ackedAtCut * 1_000_000_000L / (System.nanoTime() - start);
                if (lagMillis >= 0) {
                    cutOffReplica(redis.master());
                    // the simulated lag: how long the master goes on without its replica
                    Thread.sleep(lagMillis);
                }
                long ackedBeforeKill = ledger.ackedCount();
                redis.master().kill();
                long failover = redis.awaitFailover(Duration.ofSeconds(30)).toMillis();
                if (waitReplicas > 0) {
                    newReplica = SentinelGroup.startReplicaOf(redis.replica());
                }

                senders.shutdown();
                if (!senders.awaitTermination(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("sends still under way after " + BOUND);
                }
                await("the new master's queue is drained").atMost(BOUND).ignoreExceptions()
                        .until(() -> stats(template, queue).equals(Map.of("ready", 0L, "inflight", 0L, "delayed", 0L,
                                "dead", 0L)));
                ReliableRedisConsumer consumer = (ReliableRedisConsumer) context.getRoute("consumer").getConsumer();
                return new Run(mode, waitReplicas, messages, sendRate, ackedBeforeKill,
                        lagMillis >= 0 ? ackedBeforeKill - ackedAtCut : 0, failover, ledger.lost().size(),
                        ledger.failedCount(), ledger.duplicates(), maxDeliveryCount.get(),
                        consumer.getUnreplicatedAckCount());
            } finally {
                // while Redis still runs: a consumer that stops settles what it holds first
                context.stop();
                senders.shutdownNow();
                if (newReplica != null) {
                    newReplica.close();
                }
            }
        }
    }

    /**
     * Cuts the master's link to its replica and keeps the replica from reconnecting: the default user is switched off,
     * which refuses new connections and leaves open ones (the component's, the Sentinel's) alone.
     */
    private static void cutOffReplica(RedisProcess master) {
        master.commands().aclSetuser("default", AclSetuserArgs.Builder.off());
        master.commands().clientKill(KillArgs.Builder.typeSlave());
    }

    /** Sends until Redis acknowledges, with the same id each time, as an application that must not lose it does. */
    private static void sendUntilAcknowledged(ProducerTemplate template, String queue, SendLedger ledger, String id) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Exchange sent = template.send(queue, e -> {
                e.getMessage().setHeader(ReliableRedisConstants.DEDUPLICATION_ID, id);
                e.getMessage().setBody(id);
            });
            if (sent.getException() == null) {
                ledger.acked(id);
                return;
            }
            ledger.failed();
            try {
                // a send fails at once while no master answers: the retry backs off a little
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> stats(ProducerTemplate template, String queue) {
        Map<String, Long> all = template.requestBodyAndHeader(queue, null, ReliableRedisConstants.OPERATION, "stats",
                Map.class);
        return Map.of("ready", all.get("ready"), "inflight", all.get("inflight"), "delayed", all.get("delayed"),
                "dead", all.get("dead"));
    }
}
