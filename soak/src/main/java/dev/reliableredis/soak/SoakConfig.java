package dev.reliableredis.soak;

/**
 * One soak run, read from system properties (soak.*) so that Maven can pass them through.
 *
 * @param mode               list or stream
 * @param messages           messages to enqueue
 * @param consumerJvms       consumer JVMs running at once
 * @param concurrentConsumers processing threads per consumer JVM
 * @param visibilityMs       the consumers' visibility timeout
 * @param failureRate        share of processing attempts that throw
 * @param slowRate           share of attempts that take 1.5 visibility timeouts (their leases must be extended)
 * @param faultEveryMs       pause between two injected faults
 * @param appendfsync        Redis appendfsync: always or everysec
 * @param timeoutMs          how long to wait for every message to be processed or dead-lettered
 */
public record SoakConfig(String mode, int messages, int consumerJvms, int concurrentConsumers, long visibilityMs,
        double failureRate, double slowRate, long faultEveryMs, String appendfsync, long timeoutMs) {

    public static SoakConfig fromSystemProperties(String mode) {
        return new SoakConfig(mode,
                Integer.getInteger("soak.messages", 200_000),
                Integer.getInteger("soak.consumerJvms", 2),
                Integer.getInteger("soak.concurrentConsumers", 4),
                Long.getLong("soak.visibilityMs", 2_000),
                Double.parseDouble(System.getProperty("soak.failureRate", "0.1")),
                Double.parseDouble(System.getProperty("soak.slowRate", "0.001")),
                Long.getLong("soak.faultEveryMs", 6_000),
                System.getProperty("soak.appendfsync", "always"),
                Long.getLong("soak.timeoutMs", 30 * 60_000));
    }

    /** The endpoint every producer and consumer of the run uses. */
    public String endpoint() {
        return "reliable-redis:soak?mode=" + mode + "&visibilityTimeout=" + visibilityMs
               + "&maxRetries=5&retryDelay=50&maxRetryDelay=500&reaperInterval=200&maxMessagesPerPoll=20"
               + "&commandTimeout=3000";
    }
}
