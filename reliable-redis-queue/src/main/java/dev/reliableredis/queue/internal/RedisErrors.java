package dev.reliableredis.queue.internal;

import java.security.cert.CertificateException;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * A failed Redis call in words for a person: the exception's message with its root cause's, and a failed TLS
 * handshake called so. Lettuce reports one as "Unable to connect to host:port" with the handshake's reason in a
 * cause, which a message built from the outermost and innermost exceptions alone would shorten to "unable to find
 * valid certification path to requested target". And whether a retry of the call can succeed.
 */
public final class RedisErrors {

    /**
     * The error codes of a state that passes: a server loading its data or busy with a script, a replica that a
     * failover has yet to promote, a slot on the move, a cluster or master down, memory full. At the start of the
     * error, or after the dash with which Redis 6.2 quotes a command's error inside a script's; never in a key name,
     * since a queue name has no space.
     */
    private static final Pattern PASSING = Pattern.compile(
            "(^|-)(LOADING|BUSY|READONLY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN|NOREPLICAS|OOM) ");

    private RedisErrors() {
    }

    public static String describe(Throwable error) {
        SSLException handshake = causeOf(error, SSLException.class);
        if (handshake == null) {
            return withRootCause(error);
        }
        String message = String.valueOf(error.getMessage());
        String reason = handshake.getMessage() == null || message.contains(handshake.getMessage())
                ? message
                : message + ": " + handshake.getMessage();
        return causeOf(handshake, CertificateException.class) != null
                ? "TLS handshake with Redis failed: the server's certificate is not trusted (it must chain to a "
                  + "trusted CA and name the host connected to): " + reason
                : "TLS handshake with Redis failed: " + reason;
    }

    /**
     * Whether Redis answered the call with a refusal that the same call made again meets too: an ACL refusal, a key
     * of the wrong type, keys in different slots, or an error of the script itself. No answer (a timeout, a
     * connection lost) and a state that passes ({@link #PASSING}) are not.
     */
    public static boolean refusedForGood(Throwable error) {
        RedisCommandExecutionException refusal = causeOf(error, RedisCommandExecutionException.class);
        if (refusal == null) {
            return false;
        }
        String message = String.valueOf(refusal.getMessage());
        if (AclRefusal.is(message)) {
            return true;
        }
        return !PASSING.matcher(message).find() && (message.contains("WRONGTYPE") || message.contains("CROSSSLOT")
                                                    || message.contains("user_script")
                                                    || message.contains("Error running script"));
    }

    private static String withRootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = error.getMessage();
        if (root != error && root.getMessage() != null && (message == null || !message.contains(root.getMessage()))) {
            message = (message == null ? "" : message + ": ") + root.getMessage();
        }
        return message != null ? message : error.getClass().getSimpleName();
    }

    private static <T extends Throwable> T causeOf(Throwable error, Class<T> type) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
