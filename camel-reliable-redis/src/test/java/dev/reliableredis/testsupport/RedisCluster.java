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
 * each master gets an equal range of the 16384 slots, then the nodes meet. No replicas: a killed master's slots
 * stay down.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private static final int START_ATTEMPTS = 5;

    private final List<RedisProcess> masters;
    private RedisClusterClient client;
    private StatefulRedisClusterConnection<String, String> connection;

    private RedisCluster(List<RedisProcess> masters) {
        this.masters = masters;
    }

    /** Starts the masters and waits until every node serves every slot. */
    public static RedisCluster start(int masterCount) {
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masterCount; i++) {
                nodes.add(startNode());
            }
            RedisCluster cluster = new RedisCluster(nodes);
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisProcess::close);
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
                        // long enough that a loaded 2-core machine does not mark a node failed
                        "--cluster-node-timeout", "5000",
                        "--cluster-require-full-coverage", "no");
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
        for (RedisProcess other : masters.subList(1, masters.size())) {
            // CLUSTER MEET ip port bus-port: Lettuce's clusterMeet has no bus port argument
            first.dispatch(CommandType.CLUSTER, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("MEET").add("127.0.0.1").add(other.port())
                            .add(busPort(other)));
        }
        await("cluster of " + masters.size() + " masters").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(this::formed);
    }

    private boolean formed() {
        for (RedisProcess node : masters) {
            String info = node.commands().clusterInfo();
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)
                    || !info.contains("cluster_known_nodes:" + masters.size())) {
                return false;
            }
        }
        return true;
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

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
        masters.forEach(RedisProcess::close);
    }
}
