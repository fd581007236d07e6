package dev.reliableredis.camel;

import java.util.regex.Pattern;

import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;

/** Parses the redisUri option and masks its credentials wherever it is shown. */
final class RedisUris {

    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^@/?#&]+@");
    /** The same inside a URI that is itself a percent-encoded query value. */
    private static final Pattern ENCODED_USER_INFO = Pattern.compile("(?i)(?<=%3A%2F%2F)[^&]+?%40");

    private RedisUris() {
    }

    /** The Lettuce URI with the separate username and password applied; errors never show the password. */
    static RedisURI parse(String redisUri, String username, String password) {
        RedisURI uri;
        try {
            uri = RedisURI.create(redisUri);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("redisUri '" + mask(redisUri) + "' is not a valid Redis URI");
        }
        if (password != null) {
            // a credentials provider rather than setAuthentication: the same call on Lettuce 6 and 7
            uri.setCredentialsProvider(new StaticCredentialsProvider(username, password.toCharArray()));
        } else if (username != null) {
            throw new IllegalArgumentException("username is set but password is not");
        }
        return uri;
    }

    /** The text with the user info of every URI in it replaced by xxxxxx. */
    static String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = USER_INFO.matcher(text).replaceAll("xxxxxx@");
        return ENCODED_USER_INFO.matcher(masked).replaceAll("xxxxxx%40");
    }
}
