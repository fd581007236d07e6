package dev.reliableredis.queue.redis;

import java.util.regex.Pattern;

/**
 * Masks credentials in what is shown: Lettuce's errors and the component's own texts can hold a Redis URI with its
 * user info, which logs, health checks, JMX and consoles must never show.
 */
public final class Credentials {

    /**
     * From {@code ://} to the last {@code @} before the next whitespace: a password may hold {@code @ & # / ?}, so
     * no character but whitespace ends the user info safely.
     */
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)\\S*@");
    /** The same inside a URI that is itself a percent-encoded query value, which {@code &} ends. */
    private static final Pattern ENCODED_USER_INFO = Pattern.compile("(?i)(?<=%3A%2F%2F)[^&\\s]*%40");
    /** Bounds a chain of causes that loops. */
    private static final int MAX_CAUSES = 32;

    private Credentials() {
    }

    /** The text with the user info of every URI in it replaced by xxxxxx. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = USER_INFO.matcher(text).replaceAll("xxxxxx@");
        return ENCODED_USER_INFO.matcher(masked).replaceAll("xxxxxx%40");
    }

    /**
     * A copy of the error to attach where it is shown (a health check's result): each message of it and of its
     * causes masked, with their classes' names and stack traces kept.
     */
    public static Throwable mask(Throwable error) {
        return error == null ? null : new Masked(error, MAX_CAUSES);
    }

    /** Prints as the error it copies does: its class's name, then its masked message. */
    private static final class Masked extends RuntimeException {

        private final String type;

        Masked(Throwable error, int causes) {
            super(mask(error.getMessage()),
                    error.getCause() != null && causes > 0 ? new Masked(error.getCause(), causes - 1) : null);
            this.type = error.getClass().getName();
            setStackTrace(error.getStackTrace());
        }

        @Override
        public String toString() {
            return getMessage() != null ? type + ": " + getMessage() : type;
        }
    }
}
