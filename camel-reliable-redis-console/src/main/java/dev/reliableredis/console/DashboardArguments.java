package dev.reliableredis.console;

import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.QueueSettings;

/** The command line of the standalone dashboard. */
record DashboardArguments(String redisUri, String prefix, String host, int port, Duration visibilityTimeout,
        List<String> allowedHosts) {

    static final String USAGE = "Arguments: [--redis-uri redis://host:6379] [--prefix rr] [--host 127.0.0.1] "
            + "[--port 0] [--visibility-timeout 30000] [--allow-hosts name1,name2]\nWithout --redis-uri, the environment variable REDIS_URI is "
            + "used (it keeps a password out of the process list), else redis://localhost:6379. Port 0 takes any "
            + "free port. The visibility timeout (ms) is the consumers' one, from which list mode's lease ages follow. Requests "
            + "addressed to other hosts than localhost, the address listened on and the allowed hosts are refused.";

    static DashboardArguments parse(String[] args, String redisUriFromEnvironment) {
        String redisUri = redisUriFromEnvironment != null && !redisUriFromEnvironment.isEmpty()
                ? redisUriFromEnvironment : "redis://localhost:6379";
        String prefix = ReliableRedisDashboard.DEFAULT_KEY_PREFIX;
        String host = ReliableRedisDashboard.DEFAULT_HOST;
        int port = 0;
        Duration visibilityTimeout = QueueSettings.defaults().visibilityTimeout();
        List<String> allowedHosts = List.of();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--redis-uri" -> redisUri = value;
                case "--prefix" -> prefix = value;
                case "--host" -> host = value;
                case "--port" -> port = number("--port", value);
                case "--visibility-timeout" -> visibilityTimeout = Duration.ofMillis(number("--visibility-timeout",
                        value));
                case "--allow-hosts" -> allowedHosts = List.of(value.split(","));
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        return new DashboardArguments(redisUri, prefix, host, port, visibilityTimeout, allowedHosts);
    }

    private static int number(String argument, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(argument + " takes a number, was " + value);
        }
    }

    /** The Redis URI may hold a password: it is left out. */
    @Override
    public String toString() {
        return "DashboardArguments[prefix " + prefix + ", host " + host + ", port " + port + ", visibilityTimeout "
               + visibilityTimeout.toMillis() + " ms, allowed hosts " + allowedHosts + "]";
    }
}
