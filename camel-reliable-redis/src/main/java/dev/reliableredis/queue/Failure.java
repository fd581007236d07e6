package dev.reliableredis.queue;

/** A failed delivery and why it failed. */
public record Failure(Lease lease, String reason) {
}
