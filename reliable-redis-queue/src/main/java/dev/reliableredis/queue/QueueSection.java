package dev.reliableredis.queue;

/** Where a message is in its queue. */
public enum QueueSection {
    /** Waiting to be claimed. */
    READY,
    /** Claimed under a lease, dead letters being consumed by a dead-letter consumer included. */
    INFLIGHT,
    /** Waiting for its delay or for the backoff of a retry. */
    DELAYED,
    /** A dead letter that no dead-letter consumer is processing. */
    DEAD
}
