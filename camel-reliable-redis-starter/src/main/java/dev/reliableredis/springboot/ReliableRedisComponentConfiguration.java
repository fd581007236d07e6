package dev.reliableredis.springboot;

import org.apache.camel.spring.boot.ComponentConfigurationPropertiesCommon;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The reliable-redis component's options as Spring Boot properties, {@code camel.component.reliable-redis.*}.
 * Without {@code redis-uri}, the component uses the Redis client of the application's Spring Data Redis connection
 * factory when there is one ({@code spring.data.redis.*}).
 */
@ConfigurationProperties(prefix = "camel.component.reliable-redis")
public class ReliableRedisComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /** Whether to enable auto configuration of the reliable-redis component. This is enabled by default. */
    private Boolean enabled;
    /**
     * The Redis server for endpoints that do not set redisUri, as a Lettuce URI (redis://, rediss://,
     * redis-sentinel://). When not set, the application's Spring Data Redis connection (spring.data.redis.*) is used
     * if there is one, else redis://localhost:6379.
     */
    private String redisUri;
    /** The Redis user (ACL) for endpoints that do not set username. */
    private String username;
    /** The Redis password for endpoints that do not set password. */
    private String password;
    /**
     * Endpoints that set no sslContextParameters use the CamelContext's global SSL context parameters (camel.ssl.*).
     * With the application's Spring Data Redis client, TLS comes from spring.data.redis.ssl.* instead.
     */
    private Boolean useGlobalSslContextParameters = false;
    /** Replicas every enqueue and ack waits for (Redis WAIT) on endpoints that do not set waitReplicas; 0 does not wait. */
    private Integer waitReplicas = 0;
    /** How long an enqueue or ack waits for the replicas (ms), on endpoints that do not set waitTimeout. */
    private Long waitTimeout = 1_000L;
    /**
     * Wait with WAITAOF (the append-only files of the master and of waitReplicas replicas; Redis 7.2 or newer) on
     * endpoints that do not set waitAof.
     */
    private Boolean waitAof = false;
    /**
     * The slot group of endpoints that do not set slotGroup: their queues share its Redis Cluster slot, so that they
     * can hand off to each other with exactlyOnce=true.
     */
    private String slotGroup;
    /** Route errors of consumers (such as a Redis outage) to the route's error handler. */
    private Boolean bridgeErrorHandler = false;
    /** Start producers on their first message rather than with the route. */
    private Boolean lazyStartProducer = false;
    /** Whether a single Lettuce client bean in the registry is used without being named. */
    private Boolean autowiredEnabled = true;
    /** Registers each consumer's readiness check. */
    private Boolean healthCheckConsumerEnabled = true;
    /** Registers each producer's readiness check (Camel runs them with camel.health.producers-enabled=true). */
    private Boolean healthCheckProducerEnabled = true;
    /** Let the reliable-redis dev console pause and resume queues (off: its HTTP endpoint acts on a GET). */
    private Boolean devConsoleActionsEnabled = false;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
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

    public Boolean getUseGlobalSslContextParameters() {
        return useGlobalSslContextParameters;
    }

    public void setUseGlobalSslContextParameters(Boolean useGlobalSslContextParameters) {
        this.useGlobalSslContextParameters = useGlobalSslContextParameters;
    }

    public Integer getWaitReplicas() {
        return waitReplicas;
    }

    public void setWaitReplicas(Integer waitReplicas) {
        this.waitReplicas = waitReplicas;
    }

    public Long getWaitTimeout() {
        return waitTimeout;
    }

    public void setWaitTimeout(Long waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    public Boolean getWaitAof() {
        return waitAof;
    }

    public void setWaitAof(Boolean waitAof) {
        this.waitAof = waitAof;
    }

    public String getSlotGroup() {
        return slotGroup;
    }

    public void setSlotGroup(String slotGroup) {
        this.slotGroup = slotGroup;
    }

    public Boolean getBridgeErrorHandler() {
        return bridgeErrorHandler;
    }

    public void setBridgeErrorHandler(Boolean bridgeErrorHandler) {
        this.bridgeErrorHandler = bridgeErrorHandler;
    }

    public Boolean getLazyStartProducer() {
        return lazyStartProducer;
    }

    public void setLazyStartProducer(Boolean lazyStartProducer) {
        this.lazyStartProducer = lazyStartProducer;
    }

    public Boolean getAutowiredEnabled() {
        return autowiredEnabled;
    }

    public void setAutowiredEnabled(Boolean autowiredEnabled) {
        this.autowiredEnabled = autowiredEnabled;
    }

    public Boolean getHealthCheckConsumerEnabled() {
        return healthCheckConsumerEnabled;
    }

    public void setHealthCheckConsumerEnabled(Boolean healthCheckConsumerEnabled) {
        this.healthCheckConsumerEnabled = healthCheckConsumerEnabled;
    }

    public Boolean getHealthCheckProducerEnabled() {
        return healthCheckProducerEnabled;
    }

    public void setHealthCheckProducerEnabled(Boolean healthCheckProducerEnabled) {
        this.healthCheckProducerEnabled = healthCheckProducerEnabled;
    }

    public Boolean getDevConsoleActionsEnabled() {
        return devConsoleActionsEnabled;
    }

    public void setDevConsoleActionsEnabled(Boolean devConsoleActionsEnabled) {
        this.devConsoleActionsEnabled = devConsoleActionsEnabled;
    }

    /** The password is never shown. */
    @Override
    public String toString() {
        return "ReliableRedisComponentConfiguration[redisUri set: " + (redisUri != null) + "]";
    }
}
