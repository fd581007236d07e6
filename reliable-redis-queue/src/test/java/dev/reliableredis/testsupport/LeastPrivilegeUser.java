package dev.reliableredis.testsupport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * The Redis ACL user with the least privileges the component needs, as the user guide's "Least-privilege ACL user"
 * gives it ({@code LeastPrivilegeRuleDocTest} keeps the two equal). With {@code -Dreliable-redis.test.acl=true}, every
 * redis-server a test starts has this user (so it survives a restart of the server), and the tests' components log
 * in as it, while the tests' own connections stay the default user.
 */
public final class LeastPrivilegeUser {

    /** The system property that makes the tests run as this user. */
    public static final String PROPERTY = "reliable-redis.test.acl";
    public static final String NAME = "camel";
    /** A test server's password, on the loopback interface only. */
    public static final String PASSWORD = "least-privilege-test";

    /**
     * Everything after the password: the keys of the default key prefix rr, no Pub/Sub channel, and only the commands
     * the component sends and its Lua scripts run (Redis checks the ACL for each redis.call too).
     */
    public static final String RULE = "resetkeys ~rr:* resetchannels -@all +evalsha +eval +ping +blpop +client|id "
            + "+client|unblock +time +type +exists +get +set +del +pttl +pexpire +incrby +lpop +lpush +rpush +llen +lindex +lrange +ltrim +hget +hmget +hlen "
            + "+hset +hdel +hexists +hscan +zadd +zrem +zscore +zmscore +zcard +zcount +zrange +zrangebyscore +zrangebylex +zremrangebyscore +zpopmin "
            + "+xadd +xack +xclaim +xdel +xlen +xrange +xrevrange +xpending +xread +xreadgroup +xinfo|groups +xinfo|stream "
            + "+xgroup|create +xgroup|delconsumer";
    /**
     * What a Redis Cluster node's user needs besides: Lettuce's cluster client reads the topology with CLUSTER NODES,
     * asks each node its id, and names its connections.
     */
    public static final String CLUSTER_RULE = "+cluster|nodes +cluster|myid +client|setname";
    /** ReliableRedisIdempotentRepository's own rule: it runs no script. */
    public static final String IDEMPOTENT_REPOSITORY_RULE = "resetkeys ~rr:* resetchannels -@all +set +get +exists +del "
                                                            + "+unlink +scan";
    /** What the dashboard adds to the rule: it finds the queues under a prefix with SCAN. */
    public static final String DASHBOARD_RULE = "+scan";
    /**
     * What the component goes on without, as {@link #refusals} words it. INFO: the settings check, which needs
     * CONFIG GET too, which would let the user read every setting, requirepass included. CLIENT SETINFO: Lettuce's
     * name and version, sent to Redis 7.2 and newer when it connects; Redis 7.0 refuses a rule that names it.
     */
    private static final List<String> REFUSED_ON_PURPOSE = List.of("command info", "command client|setinfo");

    private LeastPrivilegeUser() {
    }

    public static boolean enabled() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** redis-server arguments that create the user when the server starts, with the cluster's addition on a node. */
    public static List<String> serverArgs(boolean clusterNode) {
        List<String> args = new ArrayList<>(List.of("--user", NAME, "on", ">" + PASSWORD));
        args.addAll(tokens(RULE));
        if (clusterNode) {
            args.addAll(tokens(CLUSTER_RULE));
        }
        return args;
    }

    /** Creates (or replaces) a user with this password and these ACL rules. */
    public static void create(RedisClusterCommands<String, String> admin, String name, String password, String rules) {
        List<String> args = new ArrayList<>(List.of("reset", "on", ">" + password));
        args.addAll(tokens(rules));
        setuser(admin, name, args);
    }

    /** Gives the user these keys too, as a streamKey or deadLetterKey outside the key prefix needs. */
    public static void grantKeys(RedisClusterCommands<String, String> admin, String... keys) {
        setuser(admin, NAME, Arrays.stream(keys).map(key -> "~" + key).toList());
    }

    /** The rule without these of its tokens, for a user that lacks those permissions. */
    public static String without(String... missing) {
        List<String> tokens = new ArrayList<>(tokens(RULE));
        for (String token : missing) {
            if (!tokens.remove(token)) {
                throw new IllegalArgumentException(token + " is not in the rule");
            }
        }
        return String.join(" ", tokens);
    }

    private static void setuser(RedisClusterCommands<String, String> admin, String name, List<String> rules) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add(name);
        rules.forEach(args::add);
        admin.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
    }

    /**
     * What Redis refused a user since the last ACL LOG RESET: the reason (command, key, channel) and what was
     * refused, such as "command info".
     */
    public static List<String> refusals(RedisClusterCommands<String, String> admin, String user) {
        List<String> refused = new ArrayList<>();
        for (Map<String, Object> entry : admin.aclLog()) {
            if (user.equals(String.valueOf(entry.get("username")))) {
                refused.add(entry.get("reason") + " " + entry.get("object"));
            }
        }
        return refused;
    }

    /** Whether the component goes on without what Redis refused (one of {@link #refusals}). */
    public static boolean refusedOnPurpose(String refusal) {
        return REFUSED_ON_PURPOSE.contains(refusal);
    }

    private static List<String> tokens(String rule) {
        return Arrays.asList(rule.trim().split("\\s+"));
    }
}
