package dev.reliableredis.queue.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import dev.reliableredis.queue.internal.ServerClock;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.Timeout;
import reactor.core.Disposable;

/**
 * The Redis connections of one endpoint: a shared, thread-safe command connection opened on first use (so
 * that a route whose Redis is down still starts), and dedicated connections for consumers' blocking waits. Works with a
 * {@link RedisClient} or a {@link RedisClusterClient}.
 */
public final class RedisGateway implements AutoCloseable {

    private final AbstractRedisClient client;
    private final boolean ownsClient;
    private final Duration commandTimeout;
    /** Where the commands go: the application's client, or the address and database of a client of our own. */
    private final Object server;
    private final ServerClock clock;
    /** Connections of the client's resources lost so far, of this gateway's or another's. */
    private final AtomicLong disconnects = new AtomicLong();
    private final Disposable disconnectCounting;
    private StatefulConnection<byte[], byte[]> connection;
    private volatile RedisClusterCommands<byte[], byte[]> commands;
    private volatile RedisClusterAsyncCommands<byte[], byte[]> asyncCommands;
    private CompletableFuture<RedisClusterCommands<byte[], byte[]>> connecting;
    private boolean closed;

    private RedisGateway(AbstractRedisClient client, boolean ownsClient, Duration commandTimeout, Object server) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.commandTimeout = commandTimeout;
        this.server = server;
        this.clock = new ServerClock(commandTimeout);
        this.disconnectCounting = client.getResources().eventBus().get()
                .filter(DisconnectedEvent.class::isInstance).subscribe(lost -> disconnects.incrementAndGet());
        LettuceVersionCheck.warnOnce();
    }

    /**
     * Client resources (event loops, reconnect policy) to share among the gateways of a component: after a lost
     * connection, reconnect attempts back off from 10 ms to at most 1 s, so a restarted Redis is used again soon.
     * The caller shuts them down after the gateways.
     */
    public static ClientResources newClientResources() {
        return DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                .build();
    }

    /** {@link #create(ClientResources, RedisURI, SslOptions, Duration)} with Lettuce's default TLS settings. */
    public static RedisGateway create(ClientResources resources, RedisURI uri, Duration commandTimeout) {
        return create(resources, uri, null, commandTimeout);
    }

    /**
     * A gateway with a client of its own, closed with the gateway. While the connection is down, commands fail at
     * once instead of waiting for it: a consumer backs off and retries, a producer's send fails its exchange.
     *
     * @param sslOptions the TLS settings of a rediss:// URI, or null for Lettuce's (the JVM's default truststore)
     */
    public static RedisGateway create(ClientResources resources, RedisURI uri, SslOptions sslOptions,
            Duration commandTimeout) {
        uri.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .socketOptions(socketOptions(commandTimeout))
                .timeoutOptions(timeoutOptions())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .sslOptions(sslOptions != null ? sslOptions : SslOptions.create())
                .build());
        return new RedisGateway(client, true, commandTimeout, address(uri));
    }

    /**
     * A gateway with a Redis Cluster client of its own, on these seed nodes, closed with the gateway. It follows
     * the cluster's topology: MOVED and ASK replies, a node that fails or does not answer, and a periodic refresh
     * trigger a new read of the slot map, so that a failover or resharding is followed within seconds.
     *
     * @param sslOptions as for {@link #create(ClientResources, RedisURI, SslOptions, Duration)}
     */
    public static RedisGateway createCluster(ClientResources resources, List<RedisURI> seeds, SslOptions sslOptions,
            Duration commandTimeout) {
        seeds.forEach(seed -> seed.setTimeout(commandTimeout));
        RedisClusterClient client = RedisClusterClient.create(resources, seeds);
        // commands wait for a node's connection (within their timeout) rather than fail at once: a cluster
        // connection opens its node connections on first use, and Lettuce 7 rejects the commands that wait for one
        // to open when commands are rejected while disconnected, so that the first calls to every master failed
        client.setOptions(ClusterClientOptions.builder()
                .socketOptions(socketOptions(commandTimeout))
                .timeoutOptions(timeoutOptions())
                .sslOptions(sslOptions != null ? sslOptions : SslOptions.create())
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
                        .refreshTriggersReconnectAttempts(2)
                        .enablePeriodicRefresh(Duration.ofSeconds(30))
                        .build())
                .build());
        return new RedisGateway(client, true, commandTimeout,
                seeds.stream().map(RedisGateway::address).sorted().toList());
    }

    /** A server's address and database, or a Sentinel master's name and its Sentinels', without credentials. */
    private static String address(RedisURI uri) {
        String where = uri.getSentinelMasterId() != null
                ? uri.getSentinelMasterId() + "@" + uri.getSentinels().stream().map(RedisGateway::address).sorted()
                        .toList()
                : uri.getHost() + ":" + uri.getPort() + (uri.getSocket() != null ? uri.getSocket() : "");
        return where + "/" + uri.getDatabase();
    }

    private static SocketOptions socketOptions(Duration commandTimeout) {
        return SocketOptions.builder().connectTimeout(commandTimeout).build();
    }

    /** Each connection's own timeout: the blocking-read connection needs a longer one. */
    private static TimeoutOptions timeoutOptions() {
        return TimeoutOptions.builder().timeoutCommands().connectionTimeout().build();
    }

    /** A gateway on a client the application owns; closing the gateway leaves the client open. */
    public static RedisGateway using(AbstractRedisClient client, Duration commandTimeout) {
        Objects.requireNonNull(client, "redisClient");
        if (!(client instanceof RedisClient) && !(client instanceof RedisClusterClient)) {
            throw new IllegalArgumentException("redisClient must be a RedisClient or a RedisClusterClient, was "
                    + client.getClass().getName());
        }
        return new RedisGateway(client, false, commandTimeout, client);
    }

    /** The command connection, opened now if it is not open yet; throws when Redis cannot be reached. */
    public RedisClusterCommands<byte[], byte[]> commands() {
        RedisClusterCommands<byte[], byte[]> current = commands;
        return current != null ? current : connect();
    }

    /** The asynchronous commands of the command connection, opened now (waiting for it) if it is not open yet. */
    public RedisClusterAsyncCommands<byte[], byte[]> asyncCommands() {
        RedisClusterAsyncCommands<byte[], byte[]> current = asyncCommands;
        if (current == null) {
            connect();
            current = asyncCommands;
            if (current == null) {
                throw new RedisException("The connection to Redis is closed");
            }
        }
        return current;
    }

    /** The asynchronous commands of the command connection if it is open, else null: for callers that must not wait. */
    public RedisClusterAsyncCommands<byte[], byte[]> asyncCommandsIfOpen() {
        return asyncCommands;
    }

    /**
     * Opens the command connection. Callers that arrive while an attempt is under way wait for that attempt instead
     * of making their own in turn, so that none waits longer than one attempt (at most the command timeout) while
     * Redis does not answer.
     */
    private RedisClusterCommands<byte[], byte[]> connect() {
        CompletableFuture<RedisClusterCommands<byte[], byte[]>> attempt;
        boolean mine;
        synchronized (this) {
            if (commands != null) {
                return commands;
            }
            if (closed) {
                throw new RedisException("The connection to Redis is closed");
            }
            mine = connecting == null;
            if (mine) {
                connecting = new CompletableFuture<>();
            }
            attempt = connecting;
        }
        if (mine) {
            open(attempt);
        }
        try {
            return attempt.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private void open(CompletableFuture<RedisClusterCommands<byte[], byte[]>> attempt) {
        StatefulConnection<byte[], byte[]> opened = null;
        try {
            opened = connectDedicated(commandTimeout);
            RedisSettingsCheck.warnOnce(sync(opened));
            RedisClusterCommands<byte[], byte[]> opening = sync(opened);
            synchronized (this) {
                connecting = null;
                if (closed) {
                    throw new RedisException("The connection to Redis is closed");
                }
                connection = opened;
                asyncCommands = async(opened);
                commands = opening;
            }
            attempt.complete(opening);
        } catch (RuntimeException e) {
            synchronized (this) {
                connecting = null;
            }
            if (opened != null) {
                opened.closeAsync();
            }
            attempt.completeExceptionally(e);
        }
    }

    /** A new command connection of its own (for blocking reads), with this timeout; the caller closes it. */
    public StatefulConnection<byte[], byte[]> connectDedicated(Duration timeout) {
        StatefulConnection<byte[], byte[]> c = client instanceof RedisClusterClient cluster
                ? connectCluster(cluster)
                : ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
        c.setTimeout(timeout);
        return c;
    }

    /**
     * A cluster connection, within the command timeout also on an application's client whose own timeout is longer:
     * its first node may be a master that does not answer, and the next attempt goes to the next node. (The
     * client's first read of the topology, once per client, follows the client's own timeout.)
     */
    private StatefulConnection<byte[], byte[]> connectCluster(RedisClusterClient cluster) {
        if (ownsClient) {
            return cluster.connect(ByteArrayCodec.INSTANCE);
        }
        cluster.getPartitions();
        CompletableFuture<StatefulRedisClusterConnection<byte[], byte[]>> opening =
                cluster.connectAsync(ByteArrayCodec.INSTANCE);
        try {
            return opening.get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            opening.thenAccept(StatefulConnection::closeAsync);
            throw new RedisConnectionException("Could not connect to the Redis Cluster within "
                    + commandTimeout.toMillis() + " ms (commandTimeout)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new RedisConnectionException(
                    "Could not connect to the Redis Cluster", e.getCause());
        } catch (InterruptedException e) {
            opening.thenAccept(StatefulConnection::closeAsync);
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("Interrupted while connecting to the Redis Cluster", e);
        }
    }

    /** The synchronous commands of a connection this gateway opened. */
    public static RedisClusterCommands<byte[], byte[]> sync(StatefulConnection<byte[], byte[]> connection) {
        return connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster
                ? cluster.sync()
                : ((StatefulRedisConnection<byte[], byte[]>) connection).sync();
    }

    /** The asynchronous commands of a connection this gateway opened. */
    public static RedisClusterAsyncCommands<byte[], byte[]> async(StatefulConnection<byte[], byte[]> connection) {
        return connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster
                ? cluster.async()
                : ((StatefulRedisConnection<byte[], byte[]>) connection).async();
    }

    /**
     * The call, bounded by the command timeout: a client the gateway made times its commands out itself; an
     * application's client may have a longer timeout of its own, or none for commands waiting for a node, so the
     * call is failed as Lettuce fails a command that timed out.
     */
    public <T> CompletionStage<T> bounded(CompletionStage<T> call) {
        return ownsClient ? call : timedOut(call);
    }

    /** The call, failed as Lettuce fails a command that timed out once the command timeout has passed. */
    private <T> CompletionStage<T> timedOut(CompletionStage<T> call) {
        CompletableFuture<T> future = call.toCompletableFuture();
        if (future.isDone()) {
            return future;
        }
        Timeout timer = client.getResources().timer().newTimeout(expired -> future.completeExceptionally(
                new RedisCommandTimeoutException("Command timed out after " + commandTimeout.toMillis()
                        + " ms (commandTimeout)")), commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
        future.whenComplete((result, error) -> timer.cancel());
        return future;
    }

    /**
     * The deadline, on the clock of the Redis server that owns the key, of a call that stores messages and starts
     * now (see {@link ServerClock}); opens the command connection if it is not open yet. On a cluster each master's
     * clock is estimated on its own, by node id: a failover or a moved slot makes the call go to a node whose clock
     * is measured before its first deadline.
     */
    public CompletableFuture<Long> deadline(byte[] key) {
        RedisClusterAsyncCommands<byte[], byte[]> async = asyncCommands();
        if (!isCluster()) {
            return clock.deadline(server, () -> bounded(async.time()));
        }
        RedisClusterNode node = ((RedisClusterClient) client).getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        if (node == null) {
            return clock.deadline(server, () -> bounded(async.time()));
        }
        // the node's connection may have to be opened first, which Lettuce's command timeout does not bound
        return clock.deadline(node.getNodeId(), () -> timedOut(clusterConnection().getConnectionAsync(node.getNodeId())
                .thenCompose(nodeConnection -> nodeConnection.async().time())));
    }

    /**
     * How many connections of the client's resources were lost so far. Lettuce sends the calls under way on a lost
     * connection again once it reconnects, so a call during which one was lost may have been carried out before: a
     * timeout or a refusal past its deadline then says nothing of whether Redis stored it.
     */
    public long disconnects() {
        return disconnects.get();
    }

    /** After a call failed on its connection or timed out: the server clocks are measured again before their use. */
    public void clocksSuspect() {
        clock.forgetAll();
    }

    private synchronized StatefulRedisClusterConnection<byte[], byte[]> clusterConnection() {
        if (connection == null) {
            throw new RedisException("The connection to Redis is closed");
        }
        return (StatefulRedisClusterConnection<byte[], byte[]>) connection;
    }

    /**
     * Whether the other gateway's commands go to the same Redis and database: the same application client, or
     * clients of our own with the same address and database (or the same Sentinel master, or the same cluster
     * seeds), whatever their credentials. One script may then touch the keys of queues of both.
     */
    public boolean sameServer(RedisGateway other) {
        return server.equals(other.server);
    }

    /** Whether the client is a Redis Cluster client, on which every call must keep its keys in one slot. */
    public boolean isCluster() {
        return client instanceof RedisClusterClient;
    }

    public Duration commandTimeout() {
        return commandTimeout;
    }

    @Override
    public synchronized void close() {
        closed = true;
        disconnectCounting.dispose();
        if (connection != null) {
            connection.close();
            connection = null;
            commands = null;
            asyncCommands = null;
        }
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /**
     * The result of an asynchronous call, waited for; its failure thrown as it is. An interrupt ends the wait at once,
     * keeping the thread's interrupt status: a stopping consumer whose claim meets a paused Redis must not hold the
     * stop for the command timeout. The call may still complete in Redis; a claim completed so is returned when its
     * lease expires.
     */
    public static <T> T await(CompletableFuture<T> call) {
        try {
            return call.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while waiting for Redis; the call may still complete there", e);
        }
    }
}
