package dev.reliableredis.camel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.queue.QueueStats;

/**
 * What a CamelContext sees of one queue, shared by the endpoints of that queue (a route's consumer endpoint and the
 * producer endpoints that write to it usually differ in their options): the activity of all of them, the queue's
 * stats through whichever of them is started, and the queue's Micrometer meters, registered while any of them is.
 */
final class QueueMonitor {

    private final String queue;
    private final String mode;
    private final QueueActivity activity = new QueueActivity();
    private final List<ReliableRedisEndpoint> endpoints = new CopyOnWriteArrayList<>();
    private AutoCloseable meters;

    QueueMonitor(String queue, String mode) {
        this.queue = queue;
        this.mode = mode;
    }

    String queue() {
        return queue;
    }

    String mode() {
        return mode;
    }

    QueueActivity activity() {
        return activity;
    }

    /** The queue's stats of at most a second ago, or null when no endpoint is started or Redis cannot be read. */
    QueueStats stats() {
        for (ReliableRedisEndpoint endpoint : endpoints) {
            StatsCache cache = endpoint.statsCache();
            if (cache != null) {
                return cache.getOrNull();
            }
        }
        return null;
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
