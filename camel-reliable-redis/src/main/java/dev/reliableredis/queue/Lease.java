package dev.reliableredis.queue;

/** One delivery's claim on a message: settling it is refused once the token is no longer current. */
public record Lease(String messageId, String token) {
}
