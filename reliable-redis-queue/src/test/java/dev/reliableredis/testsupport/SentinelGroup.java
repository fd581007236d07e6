package dev.reliableredis.testsupport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;

import static org.awaitility.Awaitility.await;

/**
 * A master, one replica and one Sentinel (quorum 1) that watches them, each a real redis-server process on a free
 * loopback port. {@link #start()} returns once the replica is in sync and the Sentinel knows it, so that killing the
 * master makes the Sentinel promote the replica (in about 3 s: 1 s until the master counts as down, then the
 * election and promotion).
 */
public final class SentinelGroup implements AutoCloseable {

    public static final String MASTER_NAME = "mymaster";
    /** A promoted replica serves a replica of its own too: neither waits before a full sync. */
    private static final String[] FAST_SYNC = {"--repl-diskless-sync-delay", "0"};
    private static final String PROBE = "sentinel-group:probe";

    private final RedisProcess master;
    private final RedisProcess replica;
    private final RedisProcess sentinel;
    private final RedisClient sentinelClient;
    private final StatefulRedisSentinelConnection<String, String> sentinelConnection;

    private SentinelGroup(RedisProcess master, RedisProcess replica, RedisProcess sentinel) {
        this.master = master;
        this.replica = replica;
        this.sentinel = sentinel;
        this.sentinelClient = RedisClient.create(RedisURI.create("redis://127.0.0.1:" + sentinel.port()));
        this.sentinelConnection = sentinelClient.connectSentinel();
    }

    public static SentinelGroup start() {
        RedisProcess master = startMaster();
        RedisProcess replica = null;
        RedisProcess sentinel = null;
        SentinelGroup group;
        try {
            replica = startReplicaOf(master);
            // started after the replica is in sync: a Sentinel learns of replicas from the master's INFO, which it
            // reads when it connects and then only every 10 s
            sentinel = RedisProcess.startSentinel(String.join("\n",
                    "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 1",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                    "sentinel failover-timeout " + MASTER_NAME + " 5000", ""));
            group = new SentinelGroup(master, replica, sentinel);
        } catch (RuntimeException | Error e) {
            for (RedisProcess started : new RedisProcess[] {sentinel, replica, master}) {
                if (started != null) {
                    started.close();
                }
            }
            throw e;
        }
        try {
            group.awaitSentinelKnowsReplica();
            return group;
        } catch (RuntimeException | Error e) {
            group.close();
            throw e;
        }
    }

    /** A server to replicate from; extra args are redis-server options such as "--appendonly", "yes". */
    public static RedisProcess startMaster(String... extraArgs) {
        // the default 5 s delay before a diskless full sync would hold up every test that starts a replica
        return RedisProcess.start(args(List.of(FAST_SYNC), extraArgs));
    }

    private static String[] args(List<String> args, String... extraArgs) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(extraArgs));
        return all.toArray(String[]::new);
    }

    /**
     * A replica of the master, returned once the master's writes reach it. Its link being up is not enough: after
     * the full sync, Redis 7 starts sending a replica the writes only once it has acknowledged the sync, which it
     * does once a second; a master killed in between leaves a promoted replica without anything written since (seen:
     * an empty replica promoted 0.5 s after the sync).
     */
    public static RedisProcess startReplicaOf(RedisProcess master, String... extraArgs) {
        RedisProcess replica = RedisProcess.start(args(List.of("--replicaof", "127.0.0.1",
                String.valueOf(master.port()), FAST_SYNC[0], FAST_SYNC[1]), extraArgs));
        try {
            await("replica in sync with its master").atMost(Duration.ofSeconds(15))
                    .until(() -> replica.commands().info("replication").contains("master_link_status:up"));
            // a write the replica must receive: a key set and deleted again, so no data is left behind
            master.commands().set(PROBE, "1");
            master.commands().del(PROBE);
            long written = offset(master.commands().info("replication"), "master_repl_offset");
            await("the master's writes reach the replica").atMost(Duration.ofSeconds(15))
                    .until(() -> offset(replica.commands().info("replication"), "slave_repl_offset") >= written);
            return replica;
        } catch (RuntimeException | Error e) {
            replica.close();
            throw e;
        }
    }

    private static long offset(String info, String field) {
        for (String line : info.split("\\r?\\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        return -1;
    }

    private void awaitSentinelKnowsReplica() {
        await("Sentinel knows the replica").atMost(Duration.ofSeconds(15))
                .until(() -> "1".equals(sentinel().master(MASTER_NAME).get("num-slaves")));
    }

    /** The component's redisUri: the Sentinel, and the name of the master it watches. */
    public String uri() {
        return "redis-sentinel://127.0.0.1:" + sentinel.port() + "#" + MASTER_NAME;
    }

    public RedisProcess master() {
        return master;
    }

    public RedisProcess replica() {
        return replica;
    }

    /** The Sentinel's commands, for questions such as the master's address. */
    public RedisSentinelCommands<String, String> sentinel() {
        return sentinelConnection.sync();
    }

    /** The port of the server the Sentinel names as master now. */
    public int masterPort() {
        SocketAddress address = sentinel().getMasterAddrByName(MASTER_NAME);
        return ((InetSocketAddress) address).getPort();
    }

    /**
     * Waits (bounded) until the Sentinel has promoted the replica: it names the replica as master and the replica says
     * it is one. Returns how long that took.
     */
    public Duration awaitFailover(Duration atMost) {
        long start = System.nanoTime();
        await("the Sentinel promotes the replica").atMost(atMost).pollInterval(Duration.ofMillis(20))
                .until(() -> masterPort() == replica.port()
                             && replica.commands().info("replication").contains("role:master"));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Override
    public void close() {
        sentinelClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        sentinel.close();
        replica.close();
        master.close();
    }
}
