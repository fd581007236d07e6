package dev.reliableredis.camel;

import java.time.Duration;

import org.slf4j.Logger;

/**
 * Logs a Redis outage once when it starts and once when it ends, not once per failed attempt, and spaces the
 * attempts out with exponential backoff.
 */
final class OutageLog {

    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 5_000;

    private final Logger log;
    private final String queue;
    private int failures;

    OutageLog(Logger log, String queue) {
        this.log = log;
        this.queue = queue;
    }

    /** Records a failed attempt; returns how long to wait before the next one. */
    synchronized Duration failed(Exception cause) {
        failures++;
        String reason = RedisUris.mask(describe(cause));
        if (failures == 1) {
            log.warn("Redis calls for queue '{}' fail: {} (retrying with backoff; logged once until they succeed)",
                    queue, reason);
        } else {
            log.debug("Redis calls for queue '{}' still fail (attempt {}): {}", queue, failures, reason);
        }
        return Duration.ofMillis(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(failures - 1, 16)));
    }

    /** Redis's own words, with an authentication failure called so. */
    private static String describe(Exception cause) {
        String message = String.valueOf(cause.getMessage());
        for (Throwable t = cause; t != null; t = t.getCause()) {
            String text = String.valueOf(t.getMessage());
            if (text.contains("WRONGPASS") || text.contains("NOAUTH") || text.contains("NOPERM")) {
                return "authentication failed (check username and password): " + message;
            }
        }
        return message;
    }

    synchronized void recovered() {
        if (failures > 0) {
            log.info("Redis calls for queue '{}' succeed again after {} failed attempts", queue, failures);
            failures = 0;
        }
    }
}
