package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;

/**
 * Who may use the dashboard, and whether anyone may change anything. With a token, every request (the page, its
 * files and the API) needs it, as {@code Authorization: Bearer <token>} or as HTTP Basic with any user name and the
 * token as password, which a browser asks for; read-only, the actions (redrive, purge) are refused. The token is
 * kept as its SHA-256 digest and compared with the digest of what a request brings, so the comparison takes the same
 * time whatever the two hold, and the token itself is neither kept nor ever logged. After a wrong token, the address
 * it came from is answered 429 for a while ({@link #BACK_OFF} by default), its token not looked at, so that guessing
 * goes slowly.
 */
final class DashboardAccess {

    static final String REALM = "Basic realm=\"reliable-redis dashboard\", charset=\"UTF-8\"";
    static final Duration BACK_OFF = Duration.ofSeconds(2);
    /** Past this many addresses, those whose back-off is over are forgotten. */
    private static final int MAX_REMEMBERED = 1000;

    private final byte[] tokenDigest;
    private final boolean readOnly;
    private final Duration backOff;
    /** When each client address last brought a wrong token (System.nanoTime). */
    private final Map<String, Long> failedAt = new ConcurrentHashMap<>();

    /**
     * @param token   the secret every request must bring; null for none
     * @param backOff how long an address that brought a wrong token is refused
     */
    DashboardAccess(String token, boolean readOnly, Duration backOff) {
        this.tokenDigest = token == null ? null : digest(token);
        this.readOnly = readOnly;
        this.backOff = backOff;
    }

    boolean hasLogin() {
        return tokenDigest != null;
    }

    boolean isReadOnly() {
        return readOnly;
    }

    /**
     * Refuses a request without the token with 401, which asks a browser for it, and one with a token from an address
     * that brought a wrong one less than the back-off ago with 429.
     */
    void checkLogin(HttpExchange exchange) {
        if (tokenDigest == null) {
            return;
        }
        String presented = presentedToken(exchange.getRequestHeaders().getFirst("Authorization"));
        if (presented != null) {
            String client = exchange.getRemoteAddress().getAddress().getHostAddress();
            long now = System.nanoTime();
            Long failed = failedAt.get(client);
            if (failed != null && now - failed < backOff.toNanos()) {
                String seconds = String.valueOf(Math.max(1, backOff.toSeconds()));
                exchange.getResponseHeaders().set("Retry-After", seconds);
                throw new ApiException(429, "A wrong token came from this address less than " + seconds
                        + " s ago: try again then");
            }
            if (MessageDigest.isEqual(tokenDigest, digest(presented))) {
                return;
            }
            failed(client, now);
        }
        exchange.getResponseHeaders().set("WWW-Authenticate", REALM);
        throw new ApiException(401, "The dashboard needs its token: Authorization: Bearer <token>, or HTTP Basic "
                + "with any user name and the token as password");
    }

    private void failed(String client, long now) {
        if (failedAt.size() >= MAX_REMEMBERED) {
            failedAt.values().removeIf(at -> now - at >= backOff.toNanos());
        }
        failedAt.put(client, now);
    }

    /** Refuses an action of a read-only dashboard with 403. */
    void checkWritable() {
        if (readOnly) {
            throw new ApiException(403, "The dashboard is read-only: it shows the queues and changes nothing");
        }
    }

    /** The token of a Bearer or Basic Authorization header, or null. */
    private static String presentedToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        int space = authorization.indexOf(' ');
        if (space < 0) {
            return null;
        }
        String scheme = authorization.substring(0, space).toLowerCase(Locale.ROOT);
        String credentials = authorization.substring(space + 1).trim();
        if (scheme.equals("bearer")) {
            return credentials;
        }
        if (scheme.equals("basic")) {
            try {
                String pair = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
                int colon = pair.indexOf(':');
                return colon < 0 ? null : pair.substring(colon + 1);
            } catch (IllegalArgumentException notBase64) {
                return null;
            }
        }
        return null;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
    }
}
