package dev.reliableredis.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.QueueSettings;

/**
 * The command line of the standalone dashboard.
 *
 * @param token the token every request must bring (from --token-file, else the environment), null for none; never
 *              shown by {@link #toString()}
 */
record DashboardArguments(String redisUri, String prefix, String slotGroup, String host, int port,
        Duration visibilityTimeout, List<String> allowedHosts, String token, boolean readOnly, boolean allowNoLogin) {

    static final String USAGE = "Arguments: [--redis-uri redis://host:6379] [--prefix rr] [--slot-group group] "
            + "[--host 127.0.0.1] [--port 0] [--visibility-timeout 30000] [--allow-hosts name1,name2] "
            + "[--token-file file] [--read-only] [--allow-no-login]\n"
            + "Without --redis-uri, the environment variable REDIS_URI is "
            + "used (it keeps a password out of the process list), else redis://localhost:6379. Port 0 takes any "
            + "free port. The visibility timeout (ms) is the consumers' one, from which list mode's lease ages follow. Requests "
            + "addressed to other hosts than localhost, the address listened on and the allowed hosts are refused. "
            + "With a token (the file's first line, else the environment variable "
            + ReliableRedisDashboard.TOKEN_VARIABLE + "), every request needs it: Authorization: Bearer <token>, or "
            + "HTTP Basic with any user name and the token as password; it has at least "
            + ReliableRedisDashboard.MIN_TOKEN_LENGTH + " characters. Without a token, the dashboard listens on a "
            + "loopback address only, unless --allow-no-login. --read-only refuses redrive and purge. "
            + "--slot-group shows the queues of that slot group (the component's slotGroup) instead of those in none.";

    static DashboardArguments parse(String[] args, String redisUriFromEnvironment, String tokenFromEnvironment) {
        String redisUri = redisUriFromEnvironment != null && !redisUriFromEnvironment.isEmpty()
                ? redisUriFromEnvironment : "redis://localhost:6379";
        String prefix = ReliableRedisDashboard.DEFAULT_KEY_PREFIX;
        String slotGroup = null;
        String host = ReliableRedisDashboard.DEFAULT_HOST;
        int port = 0;
        Duration visibilityTimeout = QueueSettings.defaults().visibilityTimeout();
        List<String> allowedHosts = List.of();
        String token = tokenFromEnvironment != null && !tokenFromEnvironment.isEmpty() ? tokenFromEnvironment : null;
        boolean readOnly = false;
        boolean allowNoLogin = false;
        int i = 0;
        while (i < args.length) {
            if (args[i].equals("--read-only")) {
                readOnly = true;
                i++;
                continue;
            }
            if (args[i].equals("--allow-no-login")) {
                allowNoLogin = true;
                i++;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--redis-uri" -> redisUri = value;
                case "--prefix" -> prefix = value;
                case "--slot-group" -> slotGroup = value;
                case "--host" -> host = value;
                case "--port" -> port = number("--port", value);
                case "--visibility-timeout" -> visibilityTimeout = Duration.ofMillis(number("--visibility-timeout",
                        value));
                case "--allow-hosts" -> allowedHosts = List.of(value.split(","));
                case "--token-file" -> token = tokenIn(Path.of(value));
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
            i += 2;
        }
        return new DashboardArguments(redisUri, prefix, slotGroup, host, port, visibilityTimeout, allowedHosts, token,
                readOnly, allowNoLogin);
    }

    /** The first line of the file, which must not be empty. */
    private static String tokenIn(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--token-file " + file + " cannot be read: " + e.getMessage());
        }
        String token = lines.isEmpty() ? "" : lines.get(0).strip();
        if (token.isEmpty()) {
            throw new IllegalArgumentException("--token-file " + file + " holds no token on its first line");
        }
        return token;
    }

    private static int number(String argument, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(argument + " takes a number, was " + value);
        }
    }

    /** The Redis URI may hold a password, and the token is a secret: both are left out. */
    @Override
    public String toString() {
        return "DashboardArguments[prefix " + prefix + (slotGroup != null ? ", slot group " + slotGroup : "")
               + ", host " + host + ", port " + port + ", visibilityTimeout "
               + visibilityTimeout.toMillis() + " ms, allowed hosts " + allowedHosts + ", "
               + (token != null ? "token login" : "no login") + (readOnly ? ", read-only" : "")
               + (allowNoLogin ? ", no login allowed on any address" : "") + "]";
    }
}
