package dev.reliableredis.console;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.ReplyTo;

/**
 * One message as a row of the page: what the engine's browse returns, with the body cut to a preview and the
 * failure and the headers to text of the same bounded length.
 *
 * @param age       ms since the first enqueue
 * @param leaseAge  in flight: ms since the lease was taken or extended, else -1
 * @param dueIn     delayed: ms until it is ready, else -1
 * @param failure   the start of the last failure, or null
 * @param owner     stream mode, in flight: the consumer holding it, else null
 * @param truncated whether the body goes on after the preview
 */
record MessageView(String messageId, int deliveries, long age, long leaseAge, long dueIn, String failure,
        String owner, String preview, boolean truncated, Map<String, String> headers) {

    static final int MAX_HEADERS = 20;

    static MessageView of(BrowsedMessage message) {
        BodyPreview preview = BodyPreview.of(message.body(), message.fields());
        return new MessageView(message.messageId(), message.deliveries(), message.age(), message.leaseAge(),
                message.dueIn(), message.failure() == null ? null : BodyPreview.ofText(message.failure()).text(),
                message.owner(), preview.text(), preview.truncated(), headers(message.headers()));
    }

    /**
     * The headers shown: not {@link ReplyTo#HEADER}, the requester's inbox and the request's correlation id, with
     * which whoever reads them and can write to Redis could answer the request in the consumer's place.
     */
    private static Map<String, String> headers(Map<String, Object> headers) {
        Map<String, String> shown = new LinkedHashMap<>();
        headers.entrySet().stream().filter(header -> !ReplyTo.HEADER.equalsIgnoreCase(header.getKey()))
                .limit(MAX_HEADERS).forEach(header -> shown.put(header.getKey(),
                header.getValue() instanceof byte[] bytes ? bytes.length + " bytes"
                        : BodyPreview.ofText(String.valueOf(header.getValue())).text()));
        return shown;
    }
}
