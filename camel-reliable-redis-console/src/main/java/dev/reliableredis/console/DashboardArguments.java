package dev.reliableredis.console;

/** The command line of the standalone dashboard. */
record DashboardArguments(String redisUri, String prefix, String host, int port) {

    static final String USAGE = "Arguments: [--redis-uri redis://host:6379] [--prefix rr] [--host 127.0.0.1] "
            + "[--port 0]\nWithout --redis-uri, the environment variable REDIS_URI is used (it keeps a password out "
            + "of the process list), else redis://localhost:6379. Port 0 takes any free port.";

    static DashboardArguments parse(String[] args, String redisUriFromEnvironment) {
        String redisUri = redisUriFromEnvironment != null && !redisUriFromEnvironment.isEmpty()
                ? redisUriFromEnvironment : "redis://localhost:6379";
        String prefix = ReliableRedisDashboard.DEFAULT_KEY_PREFIX;
        String host = ReliableRedisDashboard.DEFAULT_HOST;
        int port = 0;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--redis-uri" -> redisUri = value;
                case "--prefix" -> prefix = value;
                case "--host" -> host = value;
                case "--port" -> port = port(value);
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        return new DashboardArguments(redisUri, prefix, host, port);
    }

    private static int port(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port takes a number, was " + value);
        }
    }

    /** The Redis URI may hold a password: it is left out. */
    @Override
    public String toString() {
        return "DashboardArguments[prefix " + prefix + ", host " + host + ", port " + port + "]";
    }
}
