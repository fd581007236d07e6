package dev.reliableredis.camel;

import java.util.Map;

import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/** Readiness of a consumer or a producer of a reliable-redis endpoint, with the endpoint's queue as a detail. */
abstract class EndpointReadinessCheck extends AbstractHealthCheck {

    final ReliableRedisEndpoint endpoint;

    EndpointReadinessCheck(String id, ReliableRedisEndpoint endpoint) {
        super("camel", id);
        this.endpoint = endpoint;
    }

    @Override
    public boolean isLiveness() {
        // an outage of Redis is not cured by restarting the application
        return false;
    }

    @Override
    protected final void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("queue", endpoint.getQueueName());
        check(builder);
    }

    /** Sets the state, and the details and message that explain it. */
    abstract void check(HealthCheckResultBuilder builder);
}
