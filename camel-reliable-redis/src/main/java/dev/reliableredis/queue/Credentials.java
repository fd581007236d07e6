package dev.reliableredis.queue;

import java.util.regex.Pattern;

/**
 * Masks credentials in what is shown: Lettuce's errors and the component's own texts can hold a Redis URI with its
 * user info, which logs, health checks, JMX and consoles must never show.
 */
public final class Credentials {

    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^@/?#&]+@");
    /** The same inside a URI that is itself a percent-encoded query value. */
    private static final Pattern ENCODED_USER_INFO = Pattern.compile("(?i)(?<=%3A%2F%2F)[^&]+?%40");

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
}
