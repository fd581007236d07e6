package dev.reliableredis.queue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.reliableredis.queue.internal.HeaderCodec;

/**
 * The answer to a request: the consumer route's final body and travelling headers, or, for a request that was
 * dead-lettered, the reason. Stored in the requester's inbox as the JSON of {@link HeaderCodec}, so that reading a
 * reply never deserializes Java objects.
 *
 * @param correlationId which request it answers (see {@link ReplyTo})
 * @param body          the body, empty for an error
 * @param headers       the travelling headers, empty for an error
 * @param error         why the request failed, or null for a result; cut as a dead letter's failure is
 *                      ({@link Failure#cut})
 */
public record Reply(String correlationId, byte[] body, Map<String, Object> headers, String error) {

    private static final String CORRELATION = "c";
    private static final String BODY = "b";
    private static final String HEADERS = "h";
    private static final String ERROR = "e";

    public Reply {
        body = body == null ? new byte[0] : body;
        headers = Map.copyOf(headers);
        error = error == null ? null : Failure.cut(error);
    }

    /** The reply of a request whose consumer dead-lettered it. */
    public static Reply failed(String correlationId, String error) {
        return new Reply(correlationId, new byte[0], Map.of(), error);
    }

    public boolean isError() {
        return error != null;
    }

    public byte[] encode() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(CORRELATION, correlationId);
        if (error != null) {
            fields.put(ERROR, error);
        } else {
            fields.put(BODY, body);
            fields.put(HEADERS, HeaderCodec.encode(headers));
        }
        return HeaderCodec.encode(fields).getBytes(StandardCharsets.UTF_8);
    }

    /** Reads what {@link #encode} wrote; IllegalArgumentException for anything else. */
    public static Reply decode(byte[] stored) {
        Map<String, Object> fields = HeaderCodec.decode(new String(stored, StandardCharsets.UTF_8));
        if (!(fields.get(CORRELATION) instanceof String correlationId)) {
            throw new IllegalArgumentException("A reply without a correlation id");
        }
        if (fields.get(ERROR) instanceof String error) {
            return failed(correlationId, error);
        }
        byte[] body = fields.get(BODY) instanceof byte[] bytes ? bytes : new byte[0];
        Object headers = fields.get(HEADERS);
        return new Reply(correlationId, body, HeaderCodec.decode(headers instanceof String json ? json : ""), null);
    }
}
