package dev.reliableredis.camel;

import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultHeaderFilterStrategy;

/**
 * Lets user headers travel with the message and keeps Camel's own (Camel*, org.apache.camel.*), including this
 * component's, from travelling, in any case: Camel's header map is case-insensitive, so a header named
 * {@code cAMELFileName} that crossed the queue would reach the route as {@code CamelFileName}.
 * {@link DefaultHeaderFilterStrategy}'s start-with filters match case-sensitively, so this class matches itself, in
 * both directions, before the filters a user may add to it.
 */
public class ReliableRedisHeaderFilterStrategy extends DefaultHeaderFilterStrategy {

    private static final String CAMEL = "Camel";
    private static final String CAMEL_PACKAGE = "org.apache.camel.";

    @Override
    public boolean applyFilterToCamelHeaders(String headerName, Object headerValue, Exchange exchange) {
        return isCamelHeader(headerName) || super.applyFilterToCamelHeaders(headerName, headerValue, exchange);
    }

    @Override
    public boolean applyFilterToExternalHeaders(String headerName, Object headerValue, Exchange exchange) {
        return isCamelHeader(headerName) || super.applyFilterToExternalHeaders(headerName, headerValue, exchange);
    }

    /** Whether the name starts with Camel or org.apache.camel. in any case, as Camel's header map compares names. */
    static boolean isCamelHeader(String name) {
        return startsWithIgnoringCase(name, CAMEL) || startsWithIgnoringCase(name, CAMEL_PACKAGE);
    }

    private static boolean startsWithIgnoringCase(String name, String prefix) {
        return name.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
