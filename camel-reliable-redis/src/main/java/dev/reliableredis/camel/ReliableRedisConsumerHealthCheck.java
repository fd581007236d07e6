package dev.reliableredis.camel;

import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.redis.Credentials;
import dev.reliableredis.queue.runtime.OutageReport;
import org.apache.camel.health.HealthCheckResultBuilder;

/**
 * Readiness of a consumer: DOWN before Redis first answered and during an outage (with its cause, an authentication
 * failure called so), UP otherwise. It asks Redis nothing: every activity of the consumer (claims, housekeeping,
 * lease extensions, settlements) reports its calls' outcomes, and a claim waits at most {@code pollTimeout}, so
 * the state is never older than that. Dead letters over {@code deadLetterWarnThreshold} are a detail, not DOWN.
 */
final class ReliableRedisConsumerHealthCheck extends EndpointReadinessCheck {

    private final ReliableRedisConsumer consumer;

    ReliableRedisConsumerHealthCheck(ReliableRedisConsumer consumer, String routeId) {
        super("consumer:reliable-redis-" + routeId, consumer.getEndpoint());
        this.consumer = consumer;
    }

    @Override
    void check(HealthCheckResultBuilder builder) {
        builder.detail("mode", endpoint.getConfiguration().getMode());
        OutageReport.State state = consumer.redisState();
        if (state == null) {
            builder.down().message("The consumer of queue '" + endpoint.getQueueName() + "' is not started");
            return;
        }
        OutageReport.Outage outage = state.outage();
        if (outage != null) {
            builder.down();
            builder.message("Redis calls for queue '" + endpoint.getQueueName() + "' fail since " + outage.started()
                            + ": " + outage.reason());
            builder.detail("outage.since", outage.started().toString());
            builder.detail("outage.failedAttempts", outage.failedAttempts());
            builder.error(Credentials.mask(outage.cause()));
            return;
        }
        if (!state.reached()) {
            builder.down().message("Redis has not answered the consumer of queue '" + endpoint.getQueueName()
                                   + "' yet");
            return;
        }
        builder.up();
        long threshold = endpoint.getConfiguration().getDeadLetterWarnThreshold();
        QueueStats stats = threshold > 0 ? endpoint.statsCache().getOrNull() : null;
        if (stats != null) {
            builder.detail("dead", stats.dead());
            if (stats.dead() > threshold) {
                builder.detail("deadLetterWarning", true);
                builder.message(stats.dead() + " dead letters wait in queue '" + endpoint.getQueueName()
                                + "' (more than deadLetterWarnThreshold " + threshold + ")");
            }
        }
    }
}
