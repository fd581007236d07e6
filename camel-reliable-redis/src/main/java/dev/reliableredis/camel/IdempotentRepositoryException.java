package dev.reliableredis.camel;

import dev.reliableredis.queue.redis.Credentials;
import io.lettuce.core.RedisException;

/**
 * A call of a {@link ReliableRedisIdempotentRepository} that Redis did not carry out; the message names the
 * operation and the repository, with the user info of any Redis URI in it masked.
 */
public class IdempotentRepositoryException extends RuntimeException {

    IdempotentRepositoryException(String operation, String repository, RedisException cause) {
        super(operation + " on idempotent repository '" + repository + "' failed: " + describe(cause), cause);
    }

    private static String describe(Throwable cause) {
        StringBuilder text = new StringBuilder(String.valueOf(cause.getMessage()));
        for (Throwable c = cause.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !text.toString().contains(c.getMessage())) {
                text.append(": ").append(c.getMessage());
            }
        }
        return Credentials.mask(text.toString());
    }
}
