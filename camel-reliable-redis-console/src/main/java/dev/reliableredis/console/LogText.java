package dev.reliableredis.console;

import dev.reliableredis.queue.redis.OneLine;

/**
 * Values from a request or from Redis (message ids, group names, failures) as they go into a log line: on one line
 * ({@link OneLine}), so that no value can start a line of its own and pass for one the dashboard wrote, and at most
 * {@value #MAX_CHARACTERS} characters, then {@code …}.
 */
final class LogText {

    static final int MAX_CHARACTERS = 200;
    /** Causes can form a loop; a real chain is far shorter. */
    private static final int MAX_CAUSES = 20;

    private LogText() {
    }

    static String of(String value) {
        String line = OneLine.of(value);
        return line.codePointCount(0, line.length()) > MAX_CHARACTERS
                ? line.substring(0, line.offsetByCodePoints(0, MAX_CHARACTERS)) + "…" : line;
    }

    /**
     * The failure with its stack trace and causes, each message escaped: a message may repeat a value from the
     * request or from Redis.
     */
    static Throwable of(Throwable failure) {
        return of(failure, MAX_CAUSES);
    }

    private static Throwable of(Throwable failure, int causesLeft) {
        Throwable cause = failure.getCause() == null || causesLeft == 0 ? null : of(failure.getCause(), causesLeft - 1);
        Escaped escaped = new Escaped(failure.getClass().getName(),
                failure.getMessage() == null ? null : of(failure.getMessage()), cause);
        escaped.setStackTrace(failure.getStackTrace());
        return escaped;
    }

    /** Prints as the failure it stands for would, with its message escaped. */
    private static final class Escaped extends RuntimeException {

        private final String className;

        Escaped(String className, String message, Throwable cause) {
            super(message, cause, false, true);
            this.className = className;
        }

        @Override
        public String toString() {
            return getMessage() == null ? className : className + ": " + getMessage();
        }
    }
}
