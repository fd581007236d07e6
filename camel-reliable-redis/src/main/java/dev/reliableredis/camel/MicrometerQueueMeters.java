package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.runtime.QueueActivity;
import dev.reliableredis.queue.runtime.QueueActivity.Count;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.CamelContext;

/**
 * The Micrometer meters of one queue, tagged {@code camelContext}, {@code keyPrefix}, {@code queue}, {@code mode} and
 * {@code group} (stream mode's consumer group, {@code -} in list mode): depths and ages from the queue's stats
 * (read from Redis at most once a second, NaN while Redis cannot be read), counters of what this CamelContext's
 * consumers and producers did, and timers of their Redis round trips. Names are in docs/operations.md.
 */
final class MicrometerQueueMeters {

    /** The name camel-micrometer gives its registry; else the only MeterRegistry in the Camel registry. */
    static final String REGISTRY_NAME = "metricsRegistry";

    private MicrometerQueueMeters() {
    }

    static AutoCloseable bind(CamelContext context, QueueMonitor monitor) {
        MeterRegistry registry = context.getRegistry().lookupByNameAndType(REGISTRY_NAME, MeterRegistry.class);
        if (registry == null) {
            registry = context.getRegistry().findSingleByType(MeterRegistry.class);
        }
        if (registry == null) {
            return () -> { };
        }
        MeterRegistry meters = registry;
        Tags tags = Tags.of("camelContext", context.getName(), "keyPrefix", monitor.keyPrefix(), "queue",
                monitor.queue(), "mode", monitor.mode(), "group", monitor.group() == null ? "-" : monitor.group());
        List<Meter> bound = new ArrayList<>();

        gauge(bound, meters, monitor, tags.and("state", "ready"), QueueStats::ready);
        gauge(bound, meters, monitor, tags.and("state", "inflight"), QueueStats::inflight);
        gauge(bound, meters, monitor, tags.and("state", "delayed"), QueueStats::delayed);
        gauge(bound, meters, monitor, tags.and("state", "dead"), QueueStats::dead);
        age(bound, meters, monitor, tags.and("state", "ready"), QueueStats::oldestReadyAge);
        age(bound, meters, monitor, tags.and("state", "inflight"), QueueStats::oldestInflightAge);
        bound.add(Gauge.builder("reliable.redis.queue.paused", monitor, m -> read(m, s -> s.paused() ? 1 : 0))
                .description("1 while the queue is paused for every consumer, else 0").tags(tags).register(meters));
        bound.add(Gauge.builder("reliable.redis.queue.capped", monitor, m -> read(m, s -> s.capped() ? 1 : 0))
                .description("1 while consumers wait at the queue's maxInflight, else 0").tags(tags).register(meters));
        bound.add(Gauge.builder("reliable.redis.queue.rate.limited", monitor, m -> read(m, s -> s.limited() ? 1 : 0))
                .description("1 while the queue's rateLimit holds claims back, else 0").tags(tags).register(meters));
        bound.add(Gauge.builder("reliable.redis.queue.groups", monitor, m -> read(m, QueueStats::groups))
                .description("Message groups holding messages not yet settled").tags(tags).register(meters));

        QueueActivity activity = monitor.activity();
        counter(bound, meters, "reliable.redis.messages.delivered", "Messages delivered to a route", tags,
                activity, Count.DELIVERED);
        Map<String, Count> outcomes = Map.of("acked", Count.ACKED, "retried", Count.RETRIED, "dead_lettered",
                Count.DEAD_LETTERED, "retried_after", Count.RETRIED_AFTER, "refused", Count.REFUSED);
        outcomes.forEach((outcome, count) -> counter(bound, meters, "reliable.redis.messages.settled",
                "Deliveries settled, by outcome", tags.and("outcome", outcome), activity, count));
        counter(bound, meters, "reliable.redis.messages.sent", "Messages sent, by whether they were stored",
                tags.and("result", "stored"), activity, Count.ENQUEUED);
        counter(bound, meters, "reliable.redis.messages.sent", "Messages sent, by whether they were stored",
                tags.and("result", "duplicate"), activity, Count.DUPLICATES);
        counter(bound, meters, "reliable.redis.acks.unreplicated",
                "Acks done on the master that fewer replicas than waitReplicas confirmed", tags, activity,
                Count.UNREPLICATED_ACKS);
        counter(bound, meters, "reliable.redis.lease.extensions", "Leases extended while their exchanges ran", tags,
                activity, Count.LEASE_EXTENSIONS);
        counter(bound, meters, "reliable.redis.leases.lost",
                "Leases that expired before their exchanges finished (the message may be processed twice)", tags,
                activity, Count.LEASES_LOST);

        Timer enqueue = timer(bound, meters, tags.and("operation", "enqueue"));
        Timer ack = timer(bound, meters, tags.and("operation", "ack"));
        Timer nack = timer(bound, meters, tags.and("operation", "nack"));
        activity.timeRoundTripsWith((operation, nanos) -> {
            Timer timer = switch (operation) {
                case "enqueue" -> enqueue;
                case "ack" -> ack;
                default -> nack;
            };
            timer.record(nanos, TimeUnit.NANOSECONDS);
        });
        return () -> {
            activity.timeRoundTripsWith((operation, nanos) -> { });
            bound.forEach(meters::remove);
        };
    }

    private static void gauge(List<Meter> bound, MeterRegistry registry, QueueMonitor monitor, Tags tags,
            ToDoubleFunction<QueueStats> value) {
        bound.add(Gauge.builder("reliable.redis.queue.messages", monitor, m -> read(m, value))
                .description("Messages in the queue, by state").tags(tags).register(registry));
    }

    private static void age(List<Meter> bound, MeterRegistry registry, QueueMonitor monitor, Tags tags,
            ToDoubleFunction<QueueStats> millis) {
        bound.add(TimeGauge.builder("reliable.redis.queue.oldest.age", monitor, TimeUnit.MILLISECONDS,
                        m -> read(m, millis))
                .description("Ready: since the next message to claim was enqueued; inflight: since the oldest "
                             + "lease was taken or extended")
                .tags(tags).register(registry));
    }

    private static double read(QueueMonitor monitor, ToDoubleFunction<QueueStats> value) {
        QueueStats stats = monitor.stats().getOrNull();
        return stats == null ? Double.NaN : value.applyAsDouble(stats);
    }

    private static void counter(List<Meter> bound, MeterRegistry registry, String name, String description,
            Tags tags, QueueActivity activity, Count count) {
        bound.add(FunctionCounter.builder(name, activity, a -> a.get(count)).description(description).tags(tags)
                .register(registry));
    }

    private static Timer timer(List<Meter> bound, MeterRegistry registry, Tags tags) {
        Timer timer = Timer.builder("reliable.redis.round.trip")
                .description("Redis round trips of enqueue, ack and nack calls (one call carries a batch)")
                .tags(tags).register(registry);
        bound.add(timer);
        return timer;
    }
}
