package dev.reliableredis.queue;

/** What settling one delivery did. */
public enum Settled {
    ACKED,
    RETRY_SCHEDULED,
    DEAD_LETTERED,
    EXTENDED,
    /** The lease token was not current: the lease expired and the message was returned or claimed again. */
    REFUSED
}
