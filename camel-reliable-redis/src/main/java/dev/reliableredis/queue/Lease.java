package dev.reliableredis.queue;

/**
 * One delivery's claim on a message: settling it is refused once the token is no longer current.
 *
 * @param id    what identifies the message in Redis: the message id in list mode, the stream entry id in stream
 *              mode
 * @param token the lease token of this delivery
 */
public record Lease(String id, String token) {
}
