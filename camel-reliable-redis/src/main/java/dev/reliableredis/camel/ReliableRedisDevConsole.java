package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import dev.reliableredis.queue.redis.Credentials;
import dev.reliableredis.queue.runtime.OutageReport;
import org.apache.camel.Endpoint;
import org.apache.camel.Route;
import org.apache.camel.spi.annotations.DevConsole;
import org.apache.camel.support.PatternHelper;
import org.apache.camel.support.console.AbstractDevConsole;
import org.apache.camel.util.json.JsonObject;

/**
 * The reliable-redis dev console ({@code camel get reliable-redis}, {@code camel dev}, the dev console HTTP
 * endpoint): per endpoint, its queue's stats, the options that shape delivery, what its consumers and producers did,
 * and each consumer's Redis state with its last outage. Stats are at most a second old.
 *
 * <p>As Camel's route console starts and stops routes, this one pauses and resumes queues: the option
 * {@link #ACTION} ({@code pause} or {@code resume}) acts on the queues whose name matches {@link #FILTER} (all when
 * absent; a name, or a pattern as Camel's {@code PatternHelper} reads it), {@link #DURATION} ms long for a pause
 * (until resumed when absent). The reply then lists what it did, per queue. It acts only on the endpoints of a
 * component with {@code devConsoleActionsEnabled}: the dev console HTTP endpoint passes a GET's query as options.
 */
@DevConsole(name = "reliable-redis", displayName = "Reliable Redis",
            description = "Queues of the reliable-redis endpoints: depths, options, activity, consumers' Redis state")
public class ReliableRedisDevConsole extends AbstractDevConsole {

    /** pause or resume the queues that {@link #FILTER} matches. */
    public static final String ACTION = "action";
    /** The queues an action acts on: a queue name or pattern; all when absent. */
    public static final String FILTER = "filter";
    /** pause: its duration in ms; until resumed when absent or 0. */
    public static final String DURATION = "duration";

    private static final String ACTIONS_OFF = "not done: the dev console's actions are off (set the component option "
                                              + "devConsoleActionsEnabled=true to turn them on)";

    private static final ReliableRedisEndpointUriFactory URI_FACTORY = new ReliableRedisEndpointUriFactory();
    private static final ReliableRedisEndpointConfigurer CONFIGURER = new ReliableRedisEndpointConfigurer();

    public ReliableRedisDevConsole() {
        super("camel", "reliable-redis", "Reliable Redis",
                "Queues of the reliable-redis endpoints: depths, options, activity, consumers' Redis state");
    }

    @Override
    protected String doCallText(Map<String, Object> options) {
        if (options.get(ACTION) != null) {
            StringBuilder text = new StringBuilder();
            act(options).forEach((queue, outcome) -> text.append(String.format("%s: %s%n", queue, outcome)));
            return text.toString();
        }
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> endpoint : endpoints()) {
            text.append(String.format("%nQueue: %s (%s mode)%n", endpoint.get("queue"), endpoint.get("mode")));
            text.append(String.format("    Endpoint: %s%n", endpoint.get("uri")));
            appendLine(text, "Stats", endpoint.get("stats"));
            appendLine(text, "Options", endpoint.get("options"));
            appendLine(text, "Activity", endpoint.get("activity"));
            for (Object consumer : (List<?>) endpoint.get("consumers")) {
                appendLine(text, "Consumer", consumer);
            }
        }
        return text.toString();
    }

    private static void appendLine(StringBuilder text, String label, Object value) {
        text.append(String.format("    %s: %s%n", label, value));
    }

    @Override
    protected Map<String, Object> doCallJson(Map<String, Object> options) {
        JsonObject root = new JsonObject();
        if (options.get(ACTION) != null) {
            root.put("action", new JsonObject(new LinkedHashMap<>(act(options))));
            return root;
        }
        root.put("endpoints", endpoints());
        return root;
    }

    /**
     * Pauses or resumes each queue (once, however many endpoints it has) that the filter matches; per queue, what
     * was done, or the error.
     */
    private Map<String, Object> act(Map<String, Object> options) {
        String action = String.valueOf(options.get(ACTION));
        if (!action.equals("pause") && !action.equals("resume")) {
            return Map.of("error", ACTION + " '" + action + "' is not one of pause, resume");
        }
        String filter = (String) options.get(FILTER);
        String duration = String.valueOf(options.getOrDefault(DURATION, "0"));
        long millis;
        try {
            millis = Long.parseLong(duration);
        } catch (NumberFormatException e) {
            millis = -1;
        }
        if (millis < 0) {
            return Map.of("error", DURATION + " '" + duration + "' is not a number of ms of 0 or more");
        }
        Map<String, Object> done = new LinkedHashMap<>();
        for (Endpoint candidate : getCamelContext().getEndpoints()) {
            if (candidate instanceof ReliableRedisEndpoint endpoint && endpoint.isStarted()
                    && (filter == null || PatternHelper.matchPattern(endpoint.getQueueName(), filter))
                    && !done.containsKey(endpoint.getQueueName())) {
                done.put(endpoint.getQueueName(), endpoint.getComponent().isDevConsoleActionsEnabled()
                        ? act(endpoint, action, millis) : ACTIONS_OFF);
            }
        }
        return done;
    }

    private static Object act(ReliableRedisEndpoint endpoint, String action, long millis) {
        try {
            if (action.equals("resume")) {
                return endpoint.resumeQueue() ? "resumed" : "resumed (it was not paused)";
            }
            endpoint.pauseQueue(millis);
            return millis > 0 ? "paused for " + millis + " ms" : "paused until resumed";
        } catch (RuntimeException e) {
            return "failed: " + Credentials.mask(String.valueOf(e.getMessage()));
        }
    }

    private List<Map<String, Object>> endpoints() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Endpoint candidate : getCamelContext().getEndpoints()) {
            if (candidate instanceof ReliableRedisEndpoint endpoint && endpoint.isStarted()) {
                list.add(describe(endpoint));
            }
        }
        return list;
    }

    private Map<String, Object> describe(ReliableRedisEndpoint endpoint) {
        ReliableRedisConfiguration configuration = endpoint.getConfiguration();
        JsonObject json = new JsonObject();
        json.put("uri", endpoint.toString());
        json.put("queue", endpoint.getQueueName());
        json.put("mode", configuration.getMode());
        try {
            JsonObject stats = new JsonObject(new LinkedHashMap<>(endpoint.statsCache().get().toMap()));
            long nextTick = endpoint.queue().nextTick();
            if (nextTick >= 0) {
                stats.put("nextTick", nextTick);
            }
            json.put("stats", stats);
        } catch (RuntimeException e) {
            json.put("stats", new JsonObject(Map.of("error", Credentials.mask(String.valueOf(e.getMessage())))));
        }
        json.put("options", options(endpoint));
        json.put("activity", new JsonObject(new LinkedHashMap<>(endpoint.activity().toMap())));
        List<Map<String, Object>> consumers = new ArrayList<>();
        for (Route route : getCamelContext().getRoutes()) {
            if (route.getConsumer() instanceof ReliableRedisConsumer consumer && consumer.getEndpoint() == endpoint) {
                consumers.add(describe(route.getRouteId(), consumer));
            }
        }
        json.put("consumers", consumers);
        return json;
    }

    /**
     * Every option the endpoint's URI can set, as the endpoint holds it, read through the configurer and URI factory
     * Camel's tooling generated, so that a new option shows without being listed here: secrets, unset options and
     * objects (a client, TLS settings, a header filter) are left out.
     */
    private static JsonObject options(ReliableRedisEndpoint endpoint) {
        JsonObject options = new JsonObject();
        for (String name : new TreeSet<>(URI_FACTORY.propertyNames())) {
            if (URI_FACTORY.secretPropertyNames().contains(name)) {
                continue;
            }
            Object value = CONFIGURER.getOptionValue(endpoint, name, false);
            if (value instanceof String || value instanceof Number || value instanceof Boolean) {
                options.put(name, value);
            }
        }
        return options;
    }

    private static Map<String, Object> describe(String routeId, ReliableRedisConsumer consumer) {
        JsonObject json = new JsonObject();
        json.put("routeId", routeId);
        json.put("state", consumer.getStatus().name());
        json.put("inflight", consumer.getInflightCount());
        OutageReport.State state = consumer.redisState();
        if (state != null) {
            json.put("redisUp", state.up());
            if (state.outage() != null) {
                json.put("outage", describe(state.outage()));
            }
            if (state.lastOutage() != null) {
                json.put("lastOutage", describe(state.lastOutage()));
            }
        }
        return json;
    }

    private static JsonObject describe(OutageReport.Outage outage) {
        JsonObject json = new JsonObject();
        json.put("started", outage.started().toString());
        if (outage.ended() != null) {
            json.put("ended", outage.ended().toString());
        }
        json.put("failedAttempts", outage.failedAttempts());
        json.put("reason", outage.reason());
        return json;
    }
}
