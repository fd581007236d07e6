package dev.reliableredis.camel;

import java.time.Duration;

/** How long to wait before the next attempt of something that keeps failing: 100 ms, doubling, at most 5 s. */
final class Backoff {

    private static final long FIRST_MS = 100;
    private static final long MAX_MS = 5_000;

    private Backoff() {
    }

    /** The wait after the given number of failed attempts in a row (1 or more). */
    static Duration after(int failures) {
        return Duration.ofMillis(Math.min(MAX_MS, FIRST_MS << Math.min(Math.max(failures, 1) - 1, 16)));
    }
}
