package dev.reliableredis.queue;

import java.util.function.Supplier;

import io.lettuce.core.RedisException;

/** A queue operation that Redis did not carry out; the message names the queue and the operation. */
public class QueueException extends RuntimeException {

    public QueueException(String queue, String operation, Throwable cause) {
        super(operation + " on queue '" + queue + "' failed: " + describe(cause), cause);
    }

    /** Runs one Redis call of a queue operation; a Redis failure becomes a QueueException naming both. */
    public static <T> T wrap(String queue, String operation, Supplier<T> redisCall) {
        try {
            return redisCall.get();
        } catch (RedisException e) {
            throw new QueueException(queue, operation, e);
        }
    }

    private static String describe(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = cause.getMessage();
        if (root != cause && root.getMessage() != null && (message == null || !message.contains(root.getMessage()))) {
            message = (message == null ? "" : message + ": ") + root.getMessage();
        }
        return message != null ? message : cause.getClass().getSimpleName();
    }
}
