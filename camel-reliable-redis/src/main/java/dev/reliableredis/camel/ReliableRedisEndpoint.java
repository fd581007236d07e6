package dev.reliableredis.camel;

import java.time.Duration;

import dev.reliableredis.queue.RedisGateway;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.stream.StreamQueue;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.DefaultEndpoint;

/**
 * Send and receive messages through a reliable queue on Redis: leases, acks, retries with backoff, dead letters
 * and crash recovery.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "reliable-redis", title = "Reliable Redis",
             syntax = "reliable-redis:queueName", category = { Category.MESSAGING },
             headersClass = ReliableRedisConstants.class)
public class ReliableRedisEndpoint extends DefaultEndpoint implements HeaderFilterStrategyAware {

    @UriPath(description = "The queue name: letters, digits and . _ : - (at most 200 characters).")
    @Metadata(required = true)
    private final String queueName;
    @UriParam
    private final ReliableRedisConfiguration configuration;
    @UriParam(label = "advanced",
              description = "Decides which headers travel with the message. By default every header except "
                            + "Camel's own.")
    private HeaderFilterStrategy headerFilterStrategy = new ReliableRedisHeaderFilterStrategy();

    private RedisGateway gateway;
    private ReliableQueue queue;
    private Enqueuer enqueuer;

    public ReliableRedisEndpoint(String uri, ReliableRedisComponent component, String queueName,
            ReliableRedisConfiguration configuration) {
        super(uri, component);
        this.queueName = queueName;
        this.configuration = configuration;
    }

    @Override
    public Producer createProducer() {
        return new ReliableRedisProducer(this);
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        ReliableRedisConsumer consumer = new ReliableRedisConsumer(this, processor);
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        Duration timeout = Duration.ofMillis(configuration.getCommandTimeout());
        gateway = configuration.getRedisClient() != null
                ? RedisGateway.using(configuration.getRedisClient(), timeout)
                : RedisGateway.create(getComponent().clientResources(), RedisUris.parse(configuration.getRedisUri(), configuration.getUsername(),
                        configuration.getPassword()), timeout);
        queue = configuration.isStreamMode()
                ? StreamQueue.of(gateway, configuration.getKeyPrefix(), queueName, configuration.streamOptions(),
                        configuration.queueSettings())
                : ListQueue.of(gateway, configuration.getKeyPrefix(), queueName, configuration.queueSettings());
    }

    @Override
    protected void doStop() throws Exception {
        synchronized (this) {
            if (enqueuer != null) {
                // a call under way ends within the command timeout; the calls waiting for it within one more
                enqueuer.stop(System.nanoTime() + 2 * gateway.commandTimeout().toNanos());
                enqueuer = null;
            }
        }
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
        super.doStop();
    }

    @Override
    public ReliableRedisComponent getComponent() {
        return (ReliableRedisComponent) super.getComponent();
    }

    /** The sends of this endpoint's producers, started with the first producer. */
    synchronized Enqueuer enqueuer() {
        if (enqueuer == null) {
            enqueuer = new Enqueuer(queue, getCamelContext().getExecutorServiceManager(), this);
        }
        return enqueuer;
    }

    /** The queue the producer writes to (and the consumer reads, unless it consumes dead letters). */
    ReliableQueue queue() {
        return queue;
    }

    public String getQueueName() {
        return queueName;
    }

    public ReliableRedisConfiguration getConfiguration() {
        return configuration;
    }

    @Override
    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return headerFilterStrategy;
    }

    @Override
    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        this.headerFilterStrategy = headerFilterStrategy;
    }

    @Override
    public String toString() {
        return RedisUris.mask(super.toString());
    }
}
