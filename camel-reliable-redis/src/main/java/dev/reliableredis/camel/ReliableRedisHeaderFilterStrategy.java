package dev.reliableredis.camel;

import org.apache.camel.support.DefaultHeaderFilterStrategy;

/**
 * Lets user headers travel with the message and keeps Camel's own (Camel*, org.apache.camel.*), including this
 * component's, from travelling.
 */
public class ReliableRedisHeaderFilterStrategy extends DefaultHeaderFilterStrategy {

    private static final String[] CAMEL_HEADERS = { "Camel", "camel", "org.apache.camel." };

    public ReliableRedisHeaderFilterStrategy() {
        setOutFilterStartsWith(CAMEL_HEADERS);
        setInFilterStartsWith(CAMEL_HEADERS);
    }
}
