package dev.reliableredis.queue;

import java.util.List;

/**
 * Messages an exchange sent to one queue, to be enqueued by the ack of the delivery it came from (see
 * {@link ReliableQueue#handOffAsync}).
 *
 * @param target   the queue they go to
 * @param messages the messages, at most 1000
 */
public record HandOff(ReliableQueue target, List<NewMessage> messages) {

    public HandOff {
        messages = List.copyOf(messages);
    }
}
