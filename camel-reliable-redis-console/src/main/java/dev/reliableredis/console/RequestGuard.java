package dev.reliableredis.console;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;

/**
 * What the dashboard checks of every request, besides its optional token ({@link DashboardAccess}). It answers only
 * requests addressed to a host it knows: localhost, the address it is bound to, and the names allowed with
 * {@link ReliableRedisDashboard#allowHosts}, so that a web page that points a DNS name of its own at the dashboard's
 * address (DNS rebinding) cannot read it or act through it. An action must be a JSON POST from the dashboard's own
 * page: a form of another site can send neither the JSON type nor, from a browser, a foreign Origin that passes.
 */
final class RequestGuard {

    private final Set<String> hosts;

    RequestGuard(InetSocketAddress bound, Set<String> allowedHosts) {
        Set<String> names = new HashSet<>(List.of("127.0.0.1", "localhost", "[::1]"));
        InetAddress address = bound.getAddress();
        if (!address.isAnyLocalAddress()) {
            String literal = address.getHostAddress();
            names.add(address instanceof Inet6Address ? "[" + literal + "]" : literal);
        }
        allowedHosts.forEach(name -> names.add(name.toLowerCase(Locale.ROOT)));
        Set<String> withPorts = new HashSet<>();
        for (String name : names) {
            withPorts.add(name + ":" + bound.getPort());
            // a browser leaves the default port out
            if (bound.getPort() == 80) {
                withPorts.add(name);
            }
        }
        hosts = Set.copyOf(withPorts);
    }

    void checkHost(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
            throw new ApiException(403, "The dashboard answers requests addressed to localhost, to the address it "
                    + "listens on, or to a host allowed with allowHosts (--allow-hosts) only");
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
