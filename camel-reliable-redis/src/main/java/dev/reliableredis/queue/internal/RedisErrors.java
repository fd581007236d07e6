package dev.reliableredis.queue.internal;

import java.security.cert.CertificateException;

import javax.net.ssl.SSLException;

/**
 * A failed Redis call in words for a person: the exception's message with its root cause's, and a failed TLS
 * handshake called so. Lettuce reports one as "Unable to connect to host:port" with the handshake's reason in a
 * cause, which a message built from the outermost and innermost exceptions alone would shorten to "unable to find
 * valid certification path to requested target".
 */
public final class RedisErrors {

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
