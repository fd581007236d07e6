package dev.reliableredis.console;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

/** Writes the dashboard's responses, each with the headers that keep a browser from misusing it. */
final class Responses {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Only the dashboard's own script and style run, nothing inline: text from Redis that slipped into the page as
     * markup would still not run. No other site may frame the page (its buttons) or read it.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; "
            + "style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private Responses() {
    }

    static void json(HttpExchange exchange, int status, Object body) {
        try {
            send(exchange, status, "application/json; charset=utf-8", JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the response as JSON", e);
        }
    }

    static void error(HttpExchange exchange, int status, String message) {
        json(exchange, status, Map.of("error", message));
    }

    static void send(HttpExchange exchange, int status, String contentType, byte[] body) {
        Headers headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ClientTimeLimit.clientsTurn();
        try {
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
