package dev.reliableredis.queue;

import java.util.Map;

/**
 * A claimed message.
 *
 * @param messageId     the message id
 * @param lease         what settles this delivery
 * @param deliveryCount 1 on the first delivery, +1 on each redelivery
 * @param enqueuedAt    Redis server time of the first enqueue, epoch ms; -1 for a dead letter whose record is
 *                      malformed (list mode), which is delivered whole as its body, without headers
 * @param body          the body as enqueued
 * @param fields        for a stream entry written by another program: its field map, which is the body; else null
 * @param headers       the travelling headers, with their original Java types
 * @param failure       why the message was dead-lettered (dead letters only; "malformed record: ..." for a
 *                      malformed one), else null
 */
public record Delivery(String messageId, Lease lease, int deliveryCount, long enqueuedAt, byte[] body,
        Map<String, String> fields, Map<String, Object> headers, String failure) {

    /** The same delivery, settled through another lease. */
    public Delivery withLease(Lease other) {
        return new Delivery(messageId, other, deliveryCount, enqueuedAt, body, fields, headers, failure);
    }
}
