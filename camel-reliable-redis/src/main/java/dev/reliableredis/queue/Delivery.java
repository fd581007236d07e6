package dev.reliableredis.queue;

import java.util.Map;

/**
 * A claimed message.
 *
 * @param lease         what settles this delivery
 * @param deliveryCount 1 on the first delivery, +1 on each redelivery
 * @param enqueuedAt    Redis server time of the first enqueue, epoch ms
 * @param body          the body as enqueued
 * @param headers       the travelling headers, with their original Java types
 * @param failure       why the message was dead-lettered (dead letters only), else null
 */
public record Delivery(Lease lease, int deliveryCount, long enqueuedAt, byte[] body, Map<String, Object> headers,
        String failure) {

    public String messageId() {
        return lease.messageId();
    }
}
