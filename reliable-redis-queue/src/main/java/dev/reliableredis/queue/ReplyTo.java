package dev.reliableredis.queue;

import java.util.Map;
import java.util.regex.Pattern;

import dev.reliableredis.queue.keys.QueueNames;

/**
 * Where the consumer of a request sends its reply: the requester's inbox, a Redis List of the request queue's
 * ({@link QueueNames#replyKey}), and the id that tells the requester which of its requests the reply answers. It
 * travels with the request under {@link #HEADER}, a name of Camel's that the header filter keeps off exchanges.
 *
 * @param inbox         the requester's inbox id (letters, digits and '-')
 * @param correlationId the request's id in that inbox (letters, digits and '-')
 * @param timeoutMillis how long the requester waits: the inbox key is kept at least that long after a reply
 */
public record ReplyTo(String inbox, String correlationId, long timeoutMillis) {

    /** The stored header that carries it, as {@code <inbox> <correlationId> <timeoutMillis>}. */
    public static final String HEADER = "CamelReliableRedisReplyTo";
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

    public ReplyTo {
        if (inbox == null || !ID.matcher(inbox).matches()) {
            throw new IllegalArgumentException("Reply inbox '" + inbox + "' is not 1 to 64 letters, digits or '-'");
        }
        if (correlationId == null || !ID.matcher(correlationId).matches()) {
            throw new IllegalArgumentException("Reply correlation id '" + correlationId
                    + "' is not 1 to 64 letters, digits or '-'");
        }
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("Reply timeout must be more than 0 ms, was " + timeoutMillis + " ms");
        }
    }

    /** The value of {@link #HEADER}. */
    public String header() {
        return inbox + " " + correlationId + " " + timeoutMillis;
    }

    /**
     * The request's reply address, from a stored message's headers: null when it is not a request, and
     * IllegalArgumentException when the header is not one this component wrote.
     */
    public static ReplyTo of(Map<String, Object> headers) {
        if (!(headers.get(HEADER) instanceof String value)) {
            return null;
        }
        String[] parts = value.split(" ");
        if (parts.length != 3 || !parts[2].matches("[1-9][0-9]{0,12}")) {
            throw new IllegalArgumentException(HEADER + " '" + value + "' is not '<inbox> <correlation id> <ms>'");
        }
        return new ReplyTo(parts[0], parts[1], Long.parseLong(parts[2]));
    }
}
