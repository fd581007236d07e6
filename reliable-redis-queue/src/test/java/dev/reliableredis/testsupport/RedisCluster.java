package dev.reliableredis.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster of real redis-server processes on loopback ports, formed from Java as redis-cli would form it:
 * each master gets an equal range of the 16384 slots, then the nodes meet, and each replica is told which master to
 * replicate. Without replicas, a killed master's slots stay down; with one, its replica takes them over.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private static final int START_ATTEMPTS = 5;

    /** Long enough that a loaded 2-core machine does not mark a node failed. */
    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(5);

    private final List<RedisProcess> masters;
    /** The replica of master i at index i, when the cluster has replicas. */
    private final List<RedisProcess> replicas;
    private RedisClusterClient client;
    private StatefulRedisClusterConnection<String, String> connection;

    private RedisCluster(List<RedisProcess> masters, List<RedisProcess> replicas) {
        this.masters = masters;
        this.replicas = replicas;
    }

    /** Starts the masters and waits until every node serves every slot. */
    public static RedisCluster start(int masterCount) {
        return start(masterCount, false);
    }

    /**
     * Starts the masters, and with {@code withReplicas} one replica of each, and waits until every node serves
     * every slot and every replica has its master's writes.
     */
    public static RedisCluster start(int masterCount, boolean withReplicas) {
        List<RedisProcess> masters = new ArrayList<>();
        List<RedisProcess> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < masterCount; i++) {
                masters.add(startNode());
                if (withReplicas) {
                    replicas.add(startNode());
                }
            }
            RedisCluster cluster = new RedisCluster(masters, replicas);
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            masters.forEach(RedisProcess::close);
            replicas.forEach(RedisProcess::close);
            throw e;
        }
    }

    /**
     * A cluster node whose bus port is chosen here: the default, port + 10000, can be above 65535 for ports of
     * the ephemeral range.
     */
    private static RedisProcess startNode() {
        for (int attempt = 1; ; attempt++) {
            try {
                return RedisProcess.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-port", String.valueOf(RedisProcess.freePort()),
                        "--cluster-node-timeout", String.valueOf(NODE_TIMEOUT.toMillis()),
                        "--cluster-require-full-coverage", "no",
                        // a replica of a killed master takes over at once, however long ago it last heard from it
                        "--cluster-replica-validity-factor", "0",
                        "--repl-diskless-sync-delay", "0");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (IllegalStateException e) {
                if (attempt == START_ATTEMPTS || !String.valueOf(e.getMessage()).contains("in use")) {
                    throw e;
                }
            }
        }
    }

    private void form() {
        for (int i = 0; i < masters.size(); i++) {
            RedisCommands<String, String> node = masters.get(i).commands();
            node.clusterSetConfigEpoch(i + 1);
            node.clusterAddSlots(IntStream.range(firstSlot(i), firstSlot(i + 1)).toArray());
        }
        RedisCommands<String, String> first = masters.get(0).commands();
        for (RedisProcess other : nodes().subList(1, nodes().size())) {
            // CLUSTER MEET ip port bus-port: Lettuce's clusterMeet has no bus port argument
            first.dispatch(CommandType.CLUSTER, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("MEET").add("127.0.0.1").add(other.port())
                            .add(busPort(other)));
        }
        await("cluster of " + nodes().size() + " nodes").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(this::formed);
        for (int i = 0; i < replicas.size(); i++) {
            String masterId = masters.get(i).commands().clusterMyId();
            RedisCommands<String, String> replica = replicas.get(i).commands();
            // a replica can be told its master only once it knows it from the cluster bus
            await("node " + replicas.get(i).port() + " knows its master").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> replica.clusterNodes().contains(masterId));
            replica.clusterReplicate(masterId);
        }
        // the tests write only later, by when a replica has acknowledged its sync and receives the writes
        for (RedisProcess replica : replicas) {
            await("node " + replica.port() + " in sync with its master").atMost(Duration.ofSeconds(30))
                    .until(() -> replica.commands().info("replication").contains("master_link_status:up"));
        }
    }

    private boolean formed() {
        for (RedisProcess node : nodes()) {
            String info = node.commands().clusterInfo();
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)
                    || !info.contains("cluster_known_nodes:" + nodes().size())) {
                return false;
            }
        }
        return true;
    }

    private List<RedisProcess> nodes() {
        List<RedisProcess> nodes = new ArrayList<>(masters);
        nodes.addAll(replicas);
        return nodes;
    }

    private static int busPort(RedisProcess node) {
        return Integer.parseInt(node.commands().configGet("cluster-port").get("cluster-port"));
    }

    private int firstSlot(int master) {
        return master * SLOTS / masters.size();
    }

    /** The node list, as redisUri takes it. */
    public String uri() {
        return masters.stream().map(m -> "127.0.0.1:" + m.port()).collect(Collectors.joining(",", "redis://", ""));
    }

    /** Commands routed to the master of each key, for assertions and setup. */
    public synchronized RedisAdvancedClusterCommands<String, String> commands() {
        if (connection == null) {
            client = RedisClusterClient.create(masters.stream()
                    .map(m -> RedisURI.create(m.uri())).toList());
            connection = client.connect();
        }
        return connection.sync();
    }

    /** The master that holds the key's slot. */
    public RedisProcess masterOf(String key) {
        int slot = SlotHash.getSlot(key);
        for (int i = masters.size() - 1; i >= 0; i--) {
            if (slot >= firstSlot(i)) {
                return masters.get(i);
            }
        }
        throw new IllegalStateException("slot " + slot);
    }

    public List<RedisProcess> masters() {
        return masters;
    }

    /** The replica started for the master at this index. */
    public RedisProcess replicaOf(RedisProcess master) {
        return replicas.get(masters.indexOf(master));
    }

    /**
     * Waits until the replica serves its killed master's slots as a master, as every other node sees it; returns how
     * long that took.
     */
    public Duration awaitFailoverTo(RedisProcess replica, Duration atMost) {
        long start = System.nanoTime();
        await("node " + replica.port() + " takes over its master's slots").atMost(atMost)
                .pollInterval(Duration.ofMillis(20)).until(() -> replica.commands().info("replication")
                        .contains("role:master") && replica.commands().clusterInfo().contains("cluster_state:ok"));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
        masters.forEach(RedisProcess::close);
        replicas.forEach(RedisProcess::close);
    }
}
