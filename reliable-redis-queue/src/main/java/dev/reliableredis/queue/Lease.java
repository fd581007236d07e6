package dev.reliableredis.queue;

/**
 * One delivery's claim on a message: settling it is refused once the token is no longer current.
 *
 * @param messageId the message id, for logs and the idempotency record
 * @param ref       what Redis knows the delivery by: the message id in list mode, the stream entry id in stream
 *                  mode
 * @param token     the lease token of this delivery
 */
public record Lease(String messageId, String ref, String token) {
}
