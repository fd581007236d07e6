package dev.reliableredis.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.reliableredis.queue.QueueException;
import io.lettuce.core.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps the dashboard's URLs onto its page and its API: GET reads, POST acts, nothing else is answered. */
final class DashboardHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardHandler.class);
    /** An action's body names a queue, a group and a message id: a few hundred bytes. */
    private static final int MAX_ACTION_BODY = 4096;

    private final DashboardApi api;
    private final PageResources page;
    private final RequestGuard guard;
    private final DashboardAccess access;

    DashboardHandler(DashboardApi api, PageResources page, RequestGuard guard, DashboardAccess access) {
        this.api = api;
        this.page = page;
        this.guard = guard;
        this.access = access;
    }

    @Override
    public void handle(HttpExchange exchange) {
        try (exchange) {
            try {
                ClientTimeLimit.dashboardsTurn();
                guard.checkHost(exchange);
                access.checkLogin(exchange);
                route(exchange, exchange.getRequestURI().getPath());
            } catch (ApiException e) {
                Responses.error(exchange, e.status(), e.getMessage());
            } catch (UncheckedIOException e) {
                // the connection is gone, or was closed for taking too long: nothing can be answered
                LOG.debug("Dashboard request {} {} ended: {}", exchange.getRequestMethod(),
                        LogText.of(exchange.getRequestURI().getPath()), LogText.of(String.valueOf(e.getCause())));
            } catch (QueueException | RedisException e) {
                LOG.warn("Dashboard request {} {} failed: {}", exchange.getRequestMethod(),
                        LogText.of(exchange.getRequestURI().getPath()), LogText.of(e.getMessage()));
                Responses.error(exchange, 503, "Redis failed: " + e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("Dashboard request {} {} failed", exchange.getRequestMethod(),
                        LogText.of(exchange.getRequestURI().getPath()), LogText.of(e));
                Responses.error(exchange, 500, "The dashboard failed: " + e.getClass().getSimpleName());
            }
        }
    }

    private void route(HttpExchange exchange, String path) {
        switch (path) {
            case "/api/queues" -> {
                method(exchange, "GET");
                Responses.json(exchange, 200, api.overview());
            }
            case "/api/settings" -> {
                method(exchange, "GET");
                Responses.json(exchange, 200, Map.of("readOnly", access.isReadOnly()));
            }
            case "/api/queue" -> {
                method(exchange, "GET");
                Map<String, String> query = query(exchange);
                Responses.json(exchange, 200, api.details(query.get("queue"), query.get("group")));
            }
            case "/api/redrive" -> {
                JsonNode action = action(exchange);
                String queue = text(action, "queue");
                String group = text(action, "group");
                String messageId = text(action, "messageId");
                if (messageId == null) {
                    long moved = api.redriveAll(queue, group);
                    audit(exchange, "redrove " + moved + " dead letter(s)", queue, group);
                    Responses.json(exchange, 200, Map.of("moved", moved));
                } else {
                    api.redrive(queue, group, messageId);
                    audit(exchange, "redrove the dead letter '" + LogText.of(messageId) + "'", queue, group);
                    Responses.json(exchange, 200, Map.of("moved", 1));
                }
            }
            case "/api/purge" -> {
                JsonNode action = action(exchange);
                String queue = text(action, "queue");
                String group = text(action, "group");
                long removed = api.purge(queue, group);
                audit(exchange, "purged " + removed + " message(s)", queue, group);
                Responses.json(exchange, 200, Map.of("removed", removed));
            }
            case "/api/pause" -> {
                JsonNode action = action(exchange);
                String queue = text(action, "queue");
                String group = text(action, "group");
                long durationMs = durationMs(action.get("durationMs"));
                api.pause(queue, group, durationMs);
                audit(exchange, durationMs > 0 ? "paused for " + durationMs + " ms" : "paused until resumed", queue,
                        group);
                Responses.json(exchange, 200, Map.of("durationMs", durationMs));
            }
            case "/api/resume" -> {
                JsonNode action = action(exchange);
                String queue = text(action, "queue");
                String group = text(action, "group");
                boolean wasPaused = api.resume(queue, group);
                audit(exchange, "resumed", queue, group);
                Responses.json(exchange, 200, Map.of("wasPaused", wasPaused));
            }
            default -> {
                PageResources.Resource resource = page.at(path);
                if (resource == null) {
                    throw new ApiException(404, "Nothing at " + path);
                }
                method(exchange, "GET");
                Responses.send(exchange, 200, resource.contentType(), resource.content());
            }
        }
    }

    /**
     * Actions change queues and the dashboard may have no login: the log says what was done and for which address.
     * A group or a message id, which another program may have named, is escaped so that it cannot forge a line.
     */
    private static void audit(HttpExchange exchange, String done, String queue, String group) {
        String inGroup = group == null || group.isEmpty() ? "" : " (group '" + LogText.of(group) + "')";
        LOG.info("Dashboard {} of queue '{}'{} for {}", done, LogText.of(queue), inGroup,
                exchange.getRemoteAddress().getAddress().getHostAddress());
    }

    private static void method(HttpExchange exchange, String allowed) {
        if (!allowed.equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", allowed);
            throw new ApiException(405, exchange.getRequestMethod() + " is not allowed here; use " + allowed);
        }
    }

    /** The JSON body of an action, checked to come from the dashboard's page, which is not read-only. */
    private JsonNode action(HttpExchange exchange) {
        method(exchange, "POST");
        access.checkWritable();
        guard.checkAction(exchange);
        byte[] body;
        ClientTimeLimit.clientsTurn();
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_ACTION_BODY + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ClientTimeLimit.dashboardsTurn();
        if (body.length > MAX_ACTION_BODY) {
            throw new ApiException(413, "An action's body is at most " + MAX_ACTION_BODY + " bytes");
        }
        try {
            JsonNode action = Responses.JSON.readTree(body);
            if (action == null || !action.isObject()) {
                throw new ApiException(400, "An action's body is a JSON object");
            }
            return action;
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "An action's body is not valid JSON");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A text field of an action, null when absent or null. */
    private static String text(JsonNode action, String field) {
        JsonNode value = action.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new ApiException(400, field + " must be a string");
        }
        return value.asText();
    }

    /**
     * A pause's length: absent or null is 0, until resumed. Anything but a whole JSON number is refused, where
     * Jackson's asLong would read a string or a fraction as 0 and pause until resumed.
     */
    private static long durationMs(JsonNode value) {
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new ApiException(400, "durationMs must be a whole number of ms from 0 (until resumed) to "
                    + DashboardApi.MAX_PAUSE.toMillis() + ", was " + BodyPreview.ofText(value.toString()).text());
        }
        return value.asLong();
    }

    /** The decoded query parameters; a repeated one keeps its first value. */
    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> parameters = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return parameters;
        }
        try {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                parameters.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "The query string is not URL-encoded properly");
        }
        return parameters;
    }
}
