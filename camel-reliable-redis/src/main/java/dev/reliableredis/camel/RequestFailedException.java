package dev.reliableredis.camel;

import org.apache.camel.CamelExchangeException;
import org.apache.camel.Exchange;

/** A request (requestReply=true) that its consumer dead-lettered: the message says which and why. */
public class RequestFailedException extends CamelExchangeException {

    public RequestFailedException(String message, Exchange exchange) {
        super(message, exchange);
    }
}
