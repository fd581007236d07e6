package dev.reliableredis.queue.redis;

import java.time.Duration;

/**
 * How long to wait before the next attempt of a Redis call that keeps failing (a claim, a settlement): 100 ms,
 * doubling, at most 5 s. Not a message's retry delay, which the queue's settings give.
 */
public final class CallBackoff {

    private static final long FIRST_MS = 100;
    private static final long MAX_MS = 5_000;

    private CallBackoff() {
    }

    /** The wait after the given number of failed attempts in a row (1 or more). */
    public static Duration after(int failures) {
        return Duration.ofMillis(Math.min(MAX_MS, FIRST_MS << Math.min(Math.max(failures, 1) - 1, 16)));
    }
}
