package dev.reliableredis.camel;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.testsupport.LeastPrivilegeUser;
import dev.reliableredis.testsupport.RedisCluster;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.ExceptionHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.Parameter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One redis-server per test class, emptied before each test, and a fresh CamelContext per test. Semantic tests
 * run once per mode ({@code @ParameterizedClass}), so that the two modes cannot drift apart. A subclass that
 * starts a {@link RedisCluster} in its own {@code startRedis} runs the same tests on a Redis Cluster. Under
 * {@code -Dreliable-redis.test.acl=true} the component logs in as the {@link LeastPrivilegeUser}, and a test fails
 * when Redis refused that user anything but what the component tolerates; {@link #raw} stays the default user.
 */
abstract class CamelRedisTestBase {

    /** list or stream: every endpoint URI of a test carries it. */
    @Parameter
    String mode = "list";

    static RedisProcess redis;
    /** Set instead of {@link #redis} for a class whose {@link RedisUnderTest} asks for a cluster. */
    static RedisCluster cluster;
    /** The component's slotGroup, from the class's {@link RedisUnderTest}. */
    static String slotGroup;
    CamelContext context;
    ProducerTemplate template;
    RedisClusterCommands<String, String> raw;
    /** What the test routes saw, in order. */
    final List<Exchange> received = new CopyOnWriteArrayList<>();

    /** Starts the Redis of the class's {@link RedisUnderTest}, else one plain redis-server. */
    @BeforeAll
    static void startRedis(TestInfo test) {
        RedisUnderTest under = test.getTestClass().map(c -> c.getAnnotation(RedisUnderTest.class)).orElse(null);
        if (under != null && under.cluster()) {
            cluster = RedisCluster.start(3);
        } else {
            redis = RedisProcess.start(under == null ? new String[0] : under.arguments());
        }
        slotGroup = under == null || under.slotGroup().isEmpty() ? null : under.slotGroup();
    }

    @AfterAll
    static void stopRedis() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
        if (redis != null) {
            redis.close();
            redis = null;
        }
        slotGroup = null;
    }

    @BeforeEach
    void startCamel() throws Exception {
        raw = cluster != null ? cluster.commands() : redis.commands();
        raw.flushall();
        context = new DefaultCamelContext();
        if (LeastPrivilegeUser.enabled()) {
            raw.aclLogReset();
        }
        connect(context.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri());
        context.start();
        template = context.createProducerTemplate();
    }

    @AfterEach
    void stopCamel() {
        context.stop();
        if (LeastPrivilegeUser.enabled()) {
            assertThat(LeastPrivilegeUser.refusals(raw, LeastPrivilegeUser.NAME))
                    .as("what Redis refused the least-privilege user").allMatch(LeastPrivilegeUser::refusedOnPurpose);
        }
    }

    /** Points the component at the Redis, as the least-privilege user under -Dreliable-redis.test.acl=true. */
    static void connect(ReliableRedisComponent component, String redisUri) {
        component.setRedisUri(redisUri);
        component.setSlotGroup(slotGroup);
        if (LeastPrivilegeUser.enabled()) {
            component.setUsername(LeastPrivilegeUser.NAME);
            component.setPassword(LeastPrivilegeUser.PASSWORD);
        }
    }

    /** Another CamelContext on the Redis under test, with these routes, started: another instance of the app. */
    static CamelContext startedContext(RouteBuilder routes) throws Exception {
        CamelContext other = new DefaultCamelContext();
        connect(other.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri());
        other.addRoutes(routes);
        other.start();
        return other;
    }

    /** The redisUri of the Redis or the Redis Cluster under test. */
    static String redisUri() {
        return cluster != null ? cluster.uri() : redis.uri();
    }

    /** A gateway of the queue engine's own on the Redis or Redis Cluster under test. */
    static RedisGateway gateway(ClientResources resources) {
        return RedisUris.gateway(resources, redisUri(), null, null, null, Duration.ofSeconds(5));
    }

    /** The server that holds the queue's keys: the Redis, or the queue's master in a cluster. */
    RedisClusterCommands<String, String> serverOf(String queue) {
        return cluster != null ? cluster.masterOf(key(queue, "")).commands() : raw;
    }

    /** Runs the command on the Redis, or on every master of the cluster (ACL and CONFIG are per node). */
    void onEveryServer(Consumer<RedisClusterCommands<String, String>> command) {
        if (cluster == null) {
            command.accept(raw);
        } else {
            cluster.masters().forEach(master -> command.accept(master.commands()));
        }
    }

    void routes(RouteBuilder builder) throws Exception {
        context.addRoutes(builder);
    }

    static int deliveryCount(Exchange exchange) {
        return exchange.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class);
    }

    /** A step that fails the first delivery of a message with an IllegalStateException and lets a redelivery pass. */
    static Processor failingTheFirstDelivery(String failure) {
        return exchange -> {
            if (deliveryCount(exchange) == 1) {
                throw new IllegalStateException(failure);
            }
        };
    }

    /** Adds the route {@code routeId} from {@code uri}, which fails every exchange with an IllegalStateException. */
    void alwaysFailingRoute(String routeId, String uri, String failure) throws Exception {
        routes(new RouteBuilder() {
            public void configure() {
                from(uri).routeId(routeId).throwException(new IllegalStateException(failure));
            }
        });
    }

    /** Enqueues through the component's producer; returns the message id. */
    String send(String queue, Object body, Map<String, Object> headers) {
        Exchange sent = template.request("reliable-redis:" + queue + "?mode=" + mode, e -> {
            e.getMessage().setBody(body);
            e.getMessage().setHeaders(new java.util.HashMap<>(headers));
        });
        if (sent.getException() != null) {
            throw new AssertionError("send failed", sent.getException());
        }
        return sent.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
    }

    String send(String queue, Object body) {
        return send(queue, body, Map.of());
    }

    /** The four counts both modes report. */
    @SuppressWarnings("unchecked")
    Map<String, Long> stats(String queue) {
        Map<String, Long> all = template.requestBodyAndHeader("reliable-redis:" + queue + "?mode=" + mode, null,
                ReliableRedisConstants.OPERATION, "stats", Map.class);
        return Map.of("ready", all.get("ready"), "inflight", all.get("inflight"), "delayed", all.get("delayed"), "dead",
                all.get("dead"));
    }

    /** Whether the queue is paused, as the stats operation reports it. */
    boolean paused(String queue) {
        Map<?, ?> all = template.requestBodyAndHeader("reliable-redis:" + queue + "?mode=" + mode, null,
                ReliableRedisConstants.OPERATION, "stats", Map.class);
        return all.get("paused").equals(1L);
    }

    boolean streamMode() {
        return "stream".equals(mode);
    }

    /** The stored failure of a dead-lettered message. */
    String failureOf(String queue, String messageId) {
        return streamMode() ? entryField(queue, "dead", messageId, "failure")
                : raw.hget(key(queue, "failure"), messageId);
    }

    /** The stored body of a message waiting to be delivered. */
    String bodyOf(String queue, String messageId) {
        if (!streamMode()) {
            String[] record = listRecord(queue, messageId);
            return record[2].substring(Integer.parseInt(record[1]));
        }
        return entryField(queue, "stream", messageId, "body");
    }

    /** The stored travelling headers (their JSON) of a message waiting to be delivered. */
    String headersOf(String queue, String messageId) {
        if (!streamMode()) {
            String[] record = listRecord(queue, messageId);
            return record[2].substring(0, Integer.parseInt(record[1]));
        }
        return entryField(queue, "stream", messageId, "headers");
    }

    /** A list-mode message's record, split: enqueuedAt, the headers' length, then the headers' JSON and the body. */
    private String[] listRecord(String queue, String messageId) {
        return raw.hget(key(queue, "messages"), messageId).split("\\|", 3);
    }

    /** A field of the entry that holds the message in the stream {@code part} of a stream-mode queue, or null. */
    private String entryField(String queue, String part, String messageId, String field) {
        return raw.xrange(key(queue, part), Range.create("-", "+")).stream()
                .filter(e -> messageId.equals(e.getBody().get("id"))).map(e -> e.getBody().get(field))
                .findFirst().orElse(null);
    }

    /** Waits until the queue holds exactly these counts. */
    void awaitStats(String queue, long ready, long inflight, long delayed, long dead) {
        Map<String, Long> expected = Map.of("ready", ready, "inflight", inflight, "delayed", delayed, "dead", dead);
        await("stats of " + queue).atMost(Duration.ofSeconds(15)).until(() -> stats(queue).equals(expected));
    }

    /** Binds recordingHandler, an exception handler that records the messages of the outages reported to it
     * (a consumer's exceptionHandler=#recordingHandler). */
    List<String> recordOutages() {
        List<String> reported = new CopyOnWriteArrayList<>();
        context.getRegistry().bind("recordingHandler", new ExceptionHandler() {
            public void handleException(Throwable exception) {
                reported.add(String.valueOf(exception.getMessage()));
            }

            public void handleException(String message, Throwable exception) {
                reported.add(message);
            }

            public void handleException(String message, Exchange exchange, Throwable exception) {
                reported.add(message);
            }
        });
        return reported;
    }

    /** Reshards the queue of the endpoint to {@code shards}, through that endpoint. */
    void reshard(String uri, int shards) {
        Exchange resharded = template.request(uri, e -> e.getMessage().setHeaders(new HashMap<>(Map.of(
                ReliableRedisConstants.OPERATION, "reshard", ReliableRedisConstants.SHARDS, shards))));
        assertThat(resharded.getException()).isNull();
    }

    void awaitReceived(int count) {
        await(count + " exchanges received").atMost(Duration.ofSeconds(15)).until(() -> received.size() >= count);
    }

    /** The readiness check with this id, as Camel's health check registry reports it now. */
    Optional<HealthCheck.Result> result(String id) {
        return HealthCheckHelper.invokeReadiness(context).stream()
                .filter(result -> result.getCheck().getId().equals(id)).findFirst();
    }

    HealthCheck.Result awaitState(String id, HealthCheck.State state, Duration atMost) {
        return await(id + " " + state).atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> result(id).orElse(null), result -> result != null && result.getState() == state);
    }

    String key(String queue, String part) {
        return QueueNames.keyBase(QueueNames.inSlotGroup("rr", slotGroup), queue) + part;
    }
}
