package dev.reliableredis.camel;

import java.util.Map;

import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.redis.Credentials;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness of a producer: whether its endpoint's Redis answers a {@code PING} within {@code commandTimeout}. A
 * producer has no activity of its own between sends, so the check asks Redis each time it runs.
 */
final class ReliableRedisProducerHealthCheck extends AbstractHealthCheck {

    private final ReliableRedisEndpoint endpoint;

    ReliableRedisProducerHealthCheck(ReliableRedisEndpoint endpoint, String id) {
        super("camel", "producer:reliable-redis-" + id);
        this.endpoint = endpoint;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("queue", endpoint.getQueueName());
        try {
            endpoint.ping();
            builder.up();
        } catch (RuntimeException e) {
            String reason = Credentials.mask(QueueException.describe(e));
            builder.down();
            builder.message((QueueException.isAclRefusal(reason)
                    ? "The Redis user of the producer of queue '" + endpoint.getQueueName()
                      + "' lacks a permission the component needs (ACL): "
                    : "Redis does not answer the producer of queue '" + endpoint.getQueueName() + "': ") + reason);
            builder.error(Credentials.mask(e));
        }
    }
}
