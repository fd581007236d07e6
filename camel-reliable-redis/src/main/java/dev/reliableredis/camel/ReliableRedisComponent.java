package dev.reliableredis.camel;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.Endpoint;
import org.apache.camel.SSLContextParametersAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.jsse.SSLContextParameters;

/** The reliable-redis component: a message queue on Redis that does not lose messages. */
@Component("reliable-redis")
public class ReliableRedisComponent extends HealthCheckComponent implements SSLContextParametersAware {

    @Metadata(label = "common", defaultValue = "redis://localhost:6379", secret = true,
              description = "The Redis server for endpoints that do not set redisUri, as a Lettuce URI.")
    private String redisUri = "redis://localhost:6379";
    @Metadata(label = "security", secret = true,
              description = "The Redis user (ACL) for endpoints that do not set username.")
    private String username;
    @Metadata(label = "security", secret = true,
              description = "The Redis password for endpoints that do not set password.")
    private String password;
    @Metadata(label = "security",
              description = "TLS settings (trusted CAs, client certificate) for endpoints that do not set "
                            + "sslContextParameters.")
    private SSLContextParameters sslContextParameters;
    @Metadata(label = "security", defaultValue = "false",
              description = "Use the CamelContext's global SSL context parameters for endpoints that set no "
                            + "sslContextParameters, when the component sets none either.")
    private boolean useGlobalSslContextParameters;
    @Metadata(label = "common", autowired = true,
              description = "An existing Lettuce RedisClient or RedisClusterClient to use instead of redisUri.")
    private AbstractRedisClient redisClient;
    @Metadata(label = "replication", defaultValue = "0",
              description = "Replicas every enqueue and ack waits for (Redis WAIT) on endpoints that do not set "
                            + "waitReplicas; 0 does not wait.")
    private int waitReplicas;
    @Metadata(label = "replication", defaultValue = "1000", javaType = "java.time.Duration",
              description = "How long an enqueue or ack waits for the replicas, on endpoints that do not set "
                            + "waitTimeout.")
    private long waitTimeout = 1_000;
    @Metadata(label = "replication", defaultValue = "false",
              description = "Wait with WAITAOF (the append-only files of the master and of waitReplicas replicas; "
                            + "Redis 7.2 or newer) on endpoints that do not set waitAof.")
    private boolean waitAof;
    @Metadata(label = "common,advanced",
              description = "The slot group of endpoints that do not set slotGroup: their queues share its Redis "
                            + "Cluster slot, so that they can hand off to each other with exactlyOnce=true.")
    private String slotGroup;
    @Metadata(label = "advanced", defaultValue = "false",
              description = "Let the reliable-redis dev console pause and resume the queues of this component's "
                            + "endpoints (its action option). Off, because the dev console HTTP endpoint takes its "
                            + "options from a GET, which anyone who can reach it could send.")
    private boolean devConsoleActionsEnabled;

    private ClientResources clientResources;
    /** By {@link ReliableRedisEndpoint#queueKey()}: the queues of the started endpoints. */
    private final Map<String, QueueMonitor> monitors = new HashMap<>();

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        QueueNames.validate(remaining);
        ReliableRedisConfiguration configuration = new ReliableRedisConfiguration();
        configuration.setRedisUri(redisUri);
        configuration.setUsername(username);
        configuration.setPassword(password);
        configuration.setSslContextParameters(sslContextParameters != null
                ? sslContextParameters : retrieveGlobalSslContextParameters());
        configuration.setRedisClient(redisClient);
        configuration.setWaitReplicas(waitReplicas);
        configuration.setWaitTimeout(waitTimeout);
        configuration.setWaitAof(waitAof);
        configuration.setSlotGroup(slotGroup);
        ReliableRedisEndpoint endpoint = new ReliableRedisEndpoint(uri, this, remaining, configuration);
        setProperties(endpoint, parameters);
        configuration.validate();
        return endpoint;
    }

    /** The event loops and reconnect policy shared by the clients of this component's endpoints. */
    synchronized ClientResources clientResources() {
        if (clientResources == null) {
            clientResources = RedisGateway.newClientResources();
        }
        return clientResources;
    }

    /** The endpoint started: it joins its queue's monitor, which binds the queue's meters when it is the first. */
    synchronized QueueMonitor attach(ReliableRedisEndpoint endpoint) {
        QueueMonitor monitor = monitors.computeIfAbsent(endpoint.queueKey(),
                key -> new QueueMonitor(endpoint.getQueueName(), endpoint.getMode(),
                        endpoint.getConfiguration().queueKeyPrefix(),
                        endpoint.getConfiguration().isStreamMode() ? endpoint.getConfiguration().getGroup() : null));
        if (monitor.attach(endpoint)) {
            monitor.metersBound(QueueMeters.bind(getCamelContext(), monitor));
        }
        return monitor;
    }

    /** The endpoint stops: the last one of a queue removes the queue's meters. */
    synchronized void detach(ReliableRedisEndpoint endpoint, QueueMonitor monitor) throws Exception {
        if (monitor.detach(endpoint)) {
            monitors.remove(endpoint.queueKey());
            monitor.unbindMeters();
        }
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        synchronized (this) {
            if (clientResources != null) {
                clientResources.shutdown(0, 2, TimeUnit.SECONDS);
                clientResources = null;
            }
        }
    }

    public String getRedisUri() {
        return redisUri;
    }

    public void setRedisUri(String redisUri) {
        this.redisUri = redisUri;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public SSLContextParameters getSslContextParameters() {
        return sslContextParameters;
    }

    public void setSslContextParameters(SSLContextParameters sslContextParameters) {
        this.sslContextParameters = sslContextParameters;
    }

    @Override
    public boolean isUseGlobalSslContextParameters() {
        return useGlobalSslContextParameters;
    }

    @Override
    public void setUseGlobalSslContextParameters(boolean useGlobalSslContextParameters) {
        this.useGlobalSslContextParameters = useGlobalSslContextParameters;
    }

    public AbstractRedisClient getRedisClient() {
        return redisClient;
    }

    public void setRedisClient(AbstractRedisClient redisClient) {
        this.redisClient = redisClient;
    }

    public int getWaitReplicas() {
        return waitReplicas;
    }

    public void setWaitReplicas(int waitReplicas) {
        this.waitReplicas = waitReplicas;
    }

    public long getWaitTimeout() {
        return waitTimeout;
    }

    public void setWaitTimeout(long waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    public boolean isWaitAof() {
        return waitAof;
    }

    public void setWaitAof(boolean waitAof) {
        this.waitAof = waitAof;
    }

    public String getSlotGroup() {
        return slotGroup;
    }

    public void setSlotGroup(String slotGroup) {
        this.slotGroup = slotGroup;
    }

    public boolean isDevConsoleActionsEnabled() {
        return devConsoleActionsEnabled;
    }

    public void setDevConsoleActionsEnabled(boolean devConsoleActionsEnabled) {
        this.devConsoleActionsEnabled = devConsoleActionsEnabled;
    }
}
