package dev.reliableredis.camel;

import dev.reliableredis.queue.QueueException;
import dev.reliableredis.queue.redis.Credentials;
import org.apache.camel.health.HealthCheckResultBuilder;

/**
 * Readiness of a producer: whether its endpoint's Redis answers a {@code PING} within {@code commandTimeout}. A
 * producer has no activity of its own between sends, so the check asks Redis each time it runs.
 */
final class ReliableRedisProducerHealthCheck extends EndpointReadinessCheck {

    ReliableRedisProducerHealthCheck(ReliableRedisEndpoint endpoint, String id) {
        super("producer:reliable-redis-" + id, endpoint);
    }

    @Override
    void check(HealthCheckResultBuilder builder) {
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
