package dev.reliableredis.console;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;

/**
 * What the dashboard checks before it answers, since it has no login of its own. Bound to a loopback address, it
 * answers only requests addressed to localhost, so that a web page that points a DNS name at 127.0.0.1 cannot read
 * it. An action must be a JSON POST from the dashboard's own page: a form of another site can send neither
 * the JSON type nor, from a browser, a foreign Origin that passes.
 */
final class RequestGuard {

    private final Set<String> loopbackHosts;

    RequestGuard(InetSocketAddress bound) {
        Set<String> hosts = new HashSet<>();
        if (bound.getAddress().isLoopbackAddress()) {
            for (String name : List.of("127.0.0.1", "localhost", "[::1]")) {
                hosts.add(name + ":" + bound.getPort());
                if (bound.getPort() == 80) {
                    // a browser leaves the default port out
                    hosts.add(name);
                }
            }
        }
        loopbackHosts = Set.copyOf(hosts);
    }

    void checkHost(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (!loopbackHosts.isEmpty() && (host == null || !loopbackHosts.contains(host.toLowerCase(Locale.ROOT)))) {
            throw new ApiException(403, "The dashboard answers requests to localhost only");
        }
    }

    void checkAction(HttpExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ApiException(415, "Actions take a JSON body (Content-Type: application/json)");
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (origin != null && (host == null || !hostOf(origin).equalsIgnoreCase(host))) {
            throw new ApiException(403, "Actions are taken from the dashboard's own page only");
        }
    }

    /** The host and port of an Origin, http or https (behind a proxy that ends TLS). */
    private static String hostOf(String origin) {
        int scheme = origin.indexOf("://");
        return scheme < 0 ? "" : origin.substring(scheme + 3);
    }
}
