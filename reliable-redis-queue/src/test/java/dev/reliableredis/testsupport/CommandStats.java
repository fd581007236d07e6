package dev.reliableredis.testsupport;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/** Counts from Redis's INFO commandstats, for tests that count what a component sent. */
public final class CommandStats {

    private CommandStats() {
    }

    /** One counter of one command: "calls", "failed_calls" (errors while running) or "rejected_calls" (ACL, OOM). */
    public static long of(RedisClusterCommands<String, String> redis, String command, String counter) {
        for (String line : redis.info("commandstats").split("\\r?\\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return Long.parseLong(line.replaceAll(".*[:,]" + counter + "=(\\d+).*", "$1"));
            }
        }
        return 0;
    }

    /** Script executions so far: EVAL plus EVALSHA, less those that failed (NOSCRIPT before an EVAL). */
    public static long scriptRuns(RedisClusterCommands<String, String> redis) {
        return of(redis, "evalsha", "calls") - of(redis, "evalsha", "failed_calls") + of(redis, "eval", "calls")
               - of(redis, "eval", "failed_calls");
    }
}
