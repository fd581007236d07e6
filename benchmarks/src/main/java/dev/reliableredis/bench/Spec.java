package dev.reliableredis.bench;

/**
 * One measured run of one contender, passed to its JVM as JSON.
 *
 * @param contender     which contender (see {@link Contenders})
 * @param mode          list or stream, for the component
 * @param send          plain (sendBody from each producer thread), sync (the same with the component's synchronous
 *                      option) or fast (the quickest path the contender offers)
 * @param consumers     consumer threads (concurrentConsumers)
 * @param perPoll       most messages per claim (maxMessagesPerPoll)
 * @param producers     producer threads
 * @param messages      messages in the throughput phase
 * @param queued        messages of the queued phase first, 0 for none: sent with no consumer running (the send-only
 *                      rate, and Redis bytes per queued message), then drained by the consumers alone
 * @param idleSamples   messages sent one at a time for the idle latency; 0 for none
 * @param loadedRate    messages per second for the loaded latency; 0 for none
 * @param loadedSeconds how long the loaded latency phase lasts
 * @param redis         the label of the Redis configuration (none, everysec)
 * @param port          the benchmark's Redis
 * @param round         which round of the run
 * @param build         which build of the component runs: "" for this one, else the baseline's git revision, whose
 *                      jar takes the component's place on the class path ({@code bench.baselineJar})
 */
public record Spec(String contender, String mode, String send, int consumers, int perPoll, int producers,
        int messages, int queued, int idleSamples, double loadedRate, int loadedSeconds, String redis, int port,
        int round, String build) {

    /**
     * Messages a latency-only run (no throughput phase before it) sends first, unmeasured: the latency phases measure
     * a warmed-up contender, not the JIT compiler of a fresh process.
     */
    public static final int LATENCY_WARMUP = 20_000;

    /** The unmeasured messages this run sends before its latency phases. */
    public int warmup() {
        return messages == 0 && idleSamples > 0 ? LATENCY_WARMUP : 0;
    }

    public String redisUri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Names the configuration, the same in every round; a baseline build's runs end in {@code @<revision>}. */
    public String label() {
        String label = switch (contender) {
            case "component" -> "component " + mode + " " + send + " c=" + consumers + " p=" + perPoll + senders();
            case "batched", "bullmq", "rabbitmq", "seed", "streams" -> contender + " c=" + consumers + senders();
            default -> contender + senders();
        };
        return build.isEmpty() ? label : label + " @" + build;
    }

    /** Runs with other than the headline's 8 senders say how many. */
    private String senders() {
        return producers == 8 ? "" : " s=" + producers;
    }

    public Spec withLatency(int samples, double rate, int seconds) {
        return new Spec(contender, mode, send, consumers, perPoll, producers, 0, 0, samples, rate, seconds, redis,
                port, round, build);
    }

    public Spec withBuild(String build) {
        return new Spec(contender, mode, send, consumers, perPoll, producers, messages, queued, idleSamples,
                loadedRate, loadedSeconds, redis, port, round, build);
    }
}
