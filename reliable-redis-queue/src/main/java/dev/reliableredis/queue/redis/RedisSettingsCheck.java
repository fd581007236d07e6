package dev.reliableredis.queue.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the Redis settings a reliable queue depends on and warns, once per Redis server and JVM, about
 * those that can lose messages: an evicting maxmemory-policy (Redis drops queued messages to free memory
 * without telling anyone) and no persistence at all (a restart loses everything). Servers that refuse CONFIG
 * (managed services often do) are not checked.
 */
final class RedisSettingsCheck {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSettingsCheck.class);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private RedisSettingsCheck() {
    }

    static void warnOnce(RedisClusterCommands<byte[], byte[]> redis) {
        try {
            String server = describe(redis.info("server"));
            List<String> problems = problems(config(redis, "maxmemory-policy"), config(redis, "appendonly"),
                    config(redis, "save"));
            if (!problems.isEmpty() && WARNED.add(server)) {
                problems.forEach(problem -> LOG.warn("Redis ({}): {}", OneLine.of(server), OneLine.of(problem)));
            }
        } catch (RedisException e) {
            LOG.debug("Cannot check the Redis settings: {}", OneLine.of(e.getMessage()));
        }
    }

    static List<String> problems(String maxmemoryPolicy, String appendonly, String save) {
        List<String> problems = new ArrayList<>();
        if (maxmemoryPolicy != null && !"noeviction".equals(maxmemoryPolicy)) {
            problems.add("maxmemory-policy is '" + maxmemoryPolicy + "': when memory runs short Redis deletes keys, "
                         + "queued messages among them, without an error. Set maxmemory-policy noeviction.");
        }
        if ("no".equals(appendonly) && (save == null || save.isBlank())) {
            problems.add("persistence is off (appendonly no, no RDB save points): a Redis restart loses every queued "
                         + "message. Set appendonly yes (appendfsync always loses nothing acknowledged).");
        }
        return problems;
    }

    private static String config(RedisClusterCommands<byte[], byte[]> redis, String parameter) {
        Map<String, String> values = redis.configGet(parameter);
        return values.get(parameter);
    }

    /** "port 6379, run_id 1a2b3c4d": enough to tell servers apart in a log, and unique per server run. */
    private static String describe(String info) {
        String port = "?";
        String runId = "?";
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("tcp_port:")) {
                port = line.substring("tcp_port:".length()).trim();
            } else if (line.startsWith("run_id:")) {
                runId = line.substring("run_id:".length()).trim();
            }
        }
        return "port " + port + ", run_id " + runId.substring(0, Math.min(8, runId.length()));
    }
}
