package dev.reliableredis.camel;

import org.apache.camel.support.DefaultHeaderFilterStrategy;

/**
 * Lets user headers travel with the message and keeps Camel's own (Camel*, org.apache.camel.*), including this
 * component's, from travelling.
 */
public class ReliableRedisHeaderFilterStrategy extends DefaultHeaderFilterStrategy {

    public ReliableRedisHeaderFilterStrategy() {
        setOutFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
        setInFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
    }
}
