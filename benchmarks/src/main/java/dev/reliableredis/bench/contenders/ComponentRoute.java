package dev.reliableredis.bench.contenders;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

import dev.reliableredis.bench.Bodies;
import dev.reliableredis.bench.Spec;
import dev.reliableredis.camel.ReliableRedisConstants;
import dev.reliableredis.camel.ReliableRedisConsumer;
import dev.reliableredis.camel.ReliableRedisEndpoint;

/**
 * The component through Camel routes: a route from {@code reliable-redis:bench} whose processor reports each body,
 * and producers that send the way routes do. Plain: {@code sendBody}, one message per call, from each producer
 * thread. Sync: the same with the producer's {@code synchronous=true}. Shared: the same through the consumer's own
 * endpoint, so that sends, claims and settlements share one command connection. Fast: batches of 100 bodies as one
 * List body each, sent with {@code asyncSendBody}, 4 batches in flight per producer thread. Grouped (list mode):
 * plain sends, message i in FIFO group i mod {@value #GROUPS}.
 */
public final class ComponentRoute extends CamelRouteContender {

    private static final int BATCH = 100;
    private static final int BATCHES_IN_FLIGHT = 4;
    /** Groups of the grouped run: many more than the 800 messages the consumers can hold, so that they do not bind. */
    private static final int GROUPS = 10_000;
    /**
     * limited: the queue-wide cap and rate limit switched on, far above what this machine moves, and in list mode a
     * time to live on every message: what these features cost when they do not bind.
     */
    private static final String UNBINDING_LIMITS = "&maxInflight=100000&rateLimit=10000000/1s&rateLimitBurst=1000";

    private final Spec spec;

    public ComponentRoute(Spec spec) throws Exception {
        this.spec = spec;
        String uri = "reliable-redis:bench?mode=" + spec.mode() + "&redisUri=" + spec.redisUri();
        String consumerUri = uri + "&concurrentConsumers=" + spec.consumers() + "&maxMessagesPerPoll=" + spec.perPoll()
                             + (spec.send().equals("limited") ? UNBINDING_LIMITS : "");
        start(consumerUri, spec.send().equals("sync") ? uri + "&synchronous=true"
                : spec.send().equals("shared") ? consumerUri
                : spec.send().equals("limited") ? uri + "&timeToLive=3600000" : uri);
    }

    @Override
    public void produce(int from, int to) {
        if (spec.send().equals("fast")) {
            produceBatches(from, to);
        } else if (spec.send().equals("grouped")) {
            for (int i = from; i < to; i++) {
                template.sendBodyAndHeader(producer, Bodies.of(i), ReliableRedisConstants.GROUP_ID, "g" + i % GROUPS);
            }
        } else {
            super.produce(from, to);
        }
    }

    private void produceBatches(int from, int to) {
        Deque<CompletableFuture<Object>> inFlight = new ArrayDeque<>();
        for (int i = from; i < to; i += BATCH) {
            List<byte[]> batch = new ArrayList<>(BATCH);
            for (int k = i; k < Math.min(to, i + BATCH); k++) {
                batch.add(Bodies.of(k));
            }
            if (inFlight.size() == BATCHES_IN_FLIGHT) {
                inFlight.removeFirst().join();
            }
            inFlight.add(template.asyncSendBody(producer, batch));
        }
        inFlight.forEach(CompletableFuture::join);
    }

    /** The component's own counts (its JMX attributes) of the endpoint's producers and the route's consumer. */
    @Override
    public Map<String, Long> calls() {
        ReliableRedisEndpoint endpoint = (ReliableRedisEndpoint) producer;
        Map<String, Long> calls = new java.util.HashMap<>(Map.of("enqueueCalls", endpoint.getEnqueueCallCount(),
                "enqueueMessages", endpoint.getEnqueuedCount() + endpoint.getDuplicateCount()));
        if (camel.getRoute("bench").getConsumer() instanceof ReliableRedisConsumer consumer) {
            calls.putAll(Map.of("claimCalls", consumer.getClaimCallCount(), "claimMessages",
                    consumer.getClaimedCount(), "ackCalls", consumer.getAckCallCount(), "ackMessages",
                    consumer.getAckedCount()));
            nonEmptyClaimCalls(consumer).ifPresent(count -> calls.putAll(Map.of("nonEmptyClaimCalls", count,
                    "nonEmptyClaimMessages", consumer.getClaimedCount())));
        }
        return calls;
    }

    /**
     * The consumer's claim calls that took something; empty for a baseline build (bench.baseline) from before the
     * count, which this class runs as well.
     */
    private static Optional<Long> nonEmptyClaimCalls(ReliableRedisConsumer consumer) {
        try {
            return Optional.of((Long) ReliableRedisConsumer.class.getMethod("getNonEmptyClaimCallCount")
                    .invoke(consumer));
        } catch (NoSuchMethodException olderBuild) {
            return Optional.empty();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void awaitSettled() {
        while (((Map<?, ?>) template.requestBodyAndHeader(producer, null, ReliableRedisConstants.OPERATION, "stats"))
                .get("inflight") instanceof Long inflight && inflight > 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }
}
