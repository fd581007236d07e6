package dev.reliableredis.queue;

/** What settling one delivery did. */
public enum Settled {
    ACKED,
    RETRY_SCHEDULED,
    DEAD_LETTERED,
    /** Given back as the route asked (a retry-after): due again later, not counted as failed. */
    RETRY_AFTER,
    EXTENDED,
    /** The lease token was not current: the lease expired and the message was returned or claimed again. */
    REFUSED;

    /** What an ack script's code for one delivery means, in both modes: 1 acked, 0 refused. */
    public static Settled ofAck(long code) {
        return code == 1 ? ACKED : REFUSED;
    }

    /**
     * What a nack script's code for one delivery means, in both modes: 1 retry, 2 dead letter, 3 due after its
     * retry-after, 0 refused.
     */
    public static Settled ofNack(long code) {
        return switch ((int) code) {
            case 1 -> RETRY_SCHEDULED;
            case 2 -> DEAD_LETTERED;
            case 3 -> RETRY_AFTER;
            default -> REFUSED;
        };
    }

    /** What an extend script's code for one delivery means, in both modes: 1 extended, 0 refused. */
    public static Settled ofExtend(long code) {
        return code == 1 ? EXTENDED : REFUSED;
    }
}
