package dev.reliableredis.camel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.runtime.QueueActivity;
import dev.reliableredis.queue.runtime.StatsCache;

/**
 * What a CamelContext sees of one queue, shared by the endpoints of that queue (a route's consumer endpoint and the
 * producer endpoints that write to it usually differ in their options): the activity of all of them, the queue's
 * stats, read through one of them at most once a second, and the queue's Micrometer meters, registered while any of
 * them is started.
 */
final class QueueMonitor {

    private final String queue;
    private final String mode;
    private final String keyPrefix;
    private final String group;
    private final QueueActivity activity = new QueueActivity();
    private final List<ReliableRedisEndpoint> endpoints = new CopyOnWriteArrayList<>();
    private final StatsCache stats = new StatsCache(this::readStats);
    private AutoCloseable meters;

    /** @param group the consumer group in stream mode, else null */
    QueueMonitor(String queue, String mode, String keyPrefix, String group) {
        this.queue = queue;
        this.mode = mode;
        this.keyPrefix = keyPrefix;
        this.group = group;
    }

    String queue() {
        return queue;
    }

    String mode() {
        return mode;
    }

    String keyPrefix() {
        return keyPrefix;
    }

    String group() {
        return group;
    }

    QueueActivity activity() {
        return activity;
    }

    /** The queue's stats, at most a second old. */
    StatsCache stats() {
        return stats;
    }

    /**
     * Through an endpoint with a consumer when there is one: list mode works out the age of a lease from the
     * visibility timeout, which is the consumers' (a producer endpoint has the default).
     */
    private QueueStats readStats() {
        ReliableRedisEndpoint through = null;
        for (ReliableRedisEndpoint endpoint : endpoints) {
            if (through == null || endpoint.hasConsumers()) {
                through = endpoint;
            }
        }
        if (through == null) {
            throw new IllegalStateException("No endpoint of queue '" + queue + "' is started");
        }
        return through.queue().stats();
    }

    /** Returns whether it is the first endpoint, which binds the meters. Guarded by the component. */
    boolean attach(ReliableRedisEndpoint endpoint) {
        endpoints.add(endpoint);
        return endpoints.size() == 1;
    }

    /** Returns whether it was the last endpoint. Guarded by the component. */
    boolean detach(ReliableRedisEndpoint endpoint) {
        endpoints.remove(endpoint);
        return endpoints.isEmpty();
    }

    void metersBound(AutoCloseable meters) {
        this.meters = meters;
    }

    void unbindMeters() throws Exception {
        if (meters != null) {
            meters.close();
            meters = null;
        }
    }
}
