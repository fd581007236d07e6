package dev.reliableredis.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

import com.sun.net.httpserver.HttpServer;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.keys.QueueNames;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A web dashboard of the reliable-redis queues under one key prefix: their depths, their messages, and buttons
 * that redrive dead letters and purge. It serves one page and a small JSON API with the JDK's HTTP server.
 *
 * <pre>{@code
 * ReliableRedisDashboard dashboard = ReliableRedisDashboard.forClient(redisClient)
 *         .keyPrefix("rr")
 *         .bind("127.0.0.1", 8089);
 * dashboard.start();                  // or camelContext.addService(new DashboardService(dashboard))
 * System.out.println(dashboard.url());
 * }</pre>
 *
 * <p>It binds to 127.0.0.1 unless told otherwise. Without a {@link #token token}, anyone who can reach it can use
 * it, and unless it is {@link #readOnly read-only}, purge queues; so it starts on another address without one only
 * when {@link #allowNoLogin} allows it.
 */
public final class ReliableRedisDashboard implements AutoCloseable {

    public static final String DEFAULT_KEY_PREFIX = "rr";
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** The environment variable the standalone dashboard takes its token from, unless --token-file is given. */
    public static final String TOKEN_VARIABLE = "RELIABLE_REDIS_DASHBOARD_TOKEN";
    /** The shortest token taken: 16 random characters are out of reach of guessing, even at many tries a second. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final Logger LOG = LoggerFactory.getLogger(ReliableRedisDashboard.class);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Page polls are short; more than one thread keeps one slow Redis call, or a client that has not sent its whole
     * request yet, from holding up every other request.
     */
    private static final int THREADS = 8;
    /** How long a client may take to send its request, and an action's body, and to take the answer. */
    static final Duration CLIENT_TIME_LIMIT = Duration.ofSeconds(10);

    private final RedisClient client;
    private final RedisURI uri;
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private String slotGroup;
    private String host = DEFAULT_HOST;
    private int requestedPort;
    private Duration visibilityTimeout = QueueSettings.defaults().visibilityTimeout();
    private Set<String> allowedHosts = Set.of();
    private String token;
    private boolean readOnly;
    private boolean allowNoLogin;
    private Duration clientTimeLimit = CLIENT_TIME_LIMIT;
    private Duration loginBackOff = DashboardAccess.BACK_OFF;

    private ClientResources resources;
    private RedisGateway gateway;
    private ClientTimeLimit executor;
    private HttpServer server;

    private ReliableRedisDashboard(RedisClient client, RedisURI uri) {
        this.client = client;
        this.uri = uri;
    }

    /** A dashboard on a client the application owns and closes; the dashboard opens one connection of its own. */
    public static ReliableRedisDashboard forClient(RedisClient client) {
        return new ReliableRedisDashboard(Objects.requireNonNull(client, "client"), null);
    }

    /** A dashboard with a client of its own, closed with it; the URI may hold a password, which is never shown. */
    public static ReliableRedisDashboard forUri(String redisUri) {
        Objects.requireNonNull(redisUri, "redisUri");
        try {
            return new ReliableRedisDashboard(null, RedisURI.create(redisUri));
        } catch (RuntimeException e) {
            // the text may hold a password, so it is not repeated
            throw new IllegalArgumentException("The Redis URI is not valid (not shown: it may hold a password)");
        }
    }

    /** The key prefix of the queues to show (the component's keyPrefix option); default {@code rr}. */
    public synchronized ReliableRedisDashboard keyPrefix(String prefix) {
        notStarted();
        this.keyPrefix = QueueNames.validatePrefix(prefix);
        return this;
    }

    /**
     * Shows the queues of this slot group (the component's slotGroup option) instead of those outside any: their keys
     * are in the group's hash tag, so one dashboard shows one group, or the queues that are in none.
     */
    public synchronized ReliableRedisDashboard slotGroup(String group) {
        notStarted();
        QueueNames.inSlotGroup(keyPrefix, group);
        this.slotGroup = group;
        return this;
    }

    /**
     * The consumers' visibilityTimeout (default 30 s, the component's): list mode stores when a lease ends, and the
     * dashboard shows its age as that less this timeout. One value for every queue shown.
     */
    public synchronized ReliableRedisDashboard visibilityTimeout(Duration timeout) {
        notStarted();
        Objects.requireNonNull(timeout, "visibilityTimeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("visibilityTimeout must be more than 0 ms, was " + timeout.toMillis()
                                               + " ms");
        }
        this.visibilityTimeout = timeout;
        return this;
    }

    /**
     * The host names (as browsers send them in the Host header, without the port) under which operators reach the
     * dashboard besides localhost and the address it listens on: a proxy's name, the machine's name when it listens
     * on all addresses. Requests addressed to any other name are refused.
     */
    public synchronized ReliableRedisDashboard allowHosts(String... names) {
        notStarted();
        allowedHosts = Set.of(names);
        return this;
    }

    /**
     * A secret every request must bring: {@code Authorization: Bearer <token>}, or HTTP Basic with any user name and
     * the token as password (a browser asks for it); at least {@value #MIN_TOKEN_LENGTH} characters. Never logged or
     * shown. The standalone dashboard takes it from {@code --token-file} or the environment variable
     * {@code RELIABLE_REDIS_DASHBOARD_TOKEN}.
     */
    public synchronized ReliableRedisDashboard token(String token) {
        notStarted();
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("The dashboard's token (token(String), --token-file or "
                    + TOKEN_VARIABLE + ") must not be empty");
        }
        int length = token.codePointCount(0, token.length());
        if (length < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("The dashboard's token (token(String), --token-file or "
                    + TOKEN_VARIABLE + ") must be at least " + MIN_TOKEN_LENGTH + " characters, was " + length
                    + ": a short one can be guessed (make one with, for example, openssl rand -base64 24)");
        }
        this.token = token;
        return this;
    }

    /** Shows the queues and refuses every action (redrive, purge); the page has no buttons. */
    public synchronized ReliableRedisDashboard readOnly() {
        notStarted();
        this.readOnly = true;
        return this;
    }

    /**
     * Lets the dashboard start without a {@link #token token} on an address other than a loopback one, which it
     * refuses otherwise: for a network, or a proxy with a login of its own, that already keeps others out.
     */
    public synchronized ReliableRedisDashboard allowNoLogin() {
        notStarted();
        this.allowNoLogin = true;
        return this;
    }

    /** A shorter limit than {@link #CLIENT_TIME_LIMIT}, so that a test need not wait as long. */
    synchronized ReliableRedisDashboard clientTimeLimit(Duration limit) {
        notStarted();
        this.clientTimeLimit = limit;
        return this;
    }

    /** Another back-off after a wrong token than {@link DashboardAccess#BACK_OFF}, so that a test need not race it. */
    synchronized ReliableRedisDashboard loginBackOff(Duration backOff) {
        notStarted();
        this.loginBackOff = backOff;
        return this;
    }

    /** Where to listen; default 127.0.0.1 and port 0, any free port ({@link #port()} says which). */
    public synchronized ReliableRedisDashboard bind(String host, int port) {
        notStarted();
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
        }
        this.host = Objects.requireNonNull(host, "host");
        this.requestedPort = port;
        return this;
    }

    public synchronized void start() {
        if (server != null) {
            return;
        }
        if (token == null && !allowNoLogin && !isLoopback(host)) {
            throw new IllegalStateException("The dashboard would listen on " + host + " without a login, where "
                    + "anyone who reaches it could read messages" + (readOnly ? "" : " and purge queues")
                    + ": give it a token (token(String), --token-file or " + TOKEN_VARIABLE + "), or, where the "
                    + "network or a proxy already keeps others out, allow it with allowNoLogin() (--allow-no-login)");
        }
        gateway = openGateway();
        try {
            server = HttpServer.create(new InetSocketAddress(host, requestedPort), 0);
        } catch (IOException e) {
            gateway.close();
            shutdownResources();
            throw new UncheckedIOException("The dashboard cannot listen on " + host + ":" + requestedPort, e);
        }
        String queuesPrefix = QueueNames.inSlotGroup(keyPrefix, slotGroup);
        DashboardApi api = new DashboardApi(queuesPrefix, new QueueDiscovery(gateway, queuesPrefix),
                new EngineQueues(gateway, queuesPrefix, visibilityTimeout));
        DashboardAccess access = new DashboardAccess(token, readOnly, loginBackOff);
        server.createContext("/", new DashboardHandler(api, new PageResources(),
                new RequestGuard(server.getAddress(), allowedHosts), access));
        executor = new ClientTimeLimit(THREADS, clientTimeLimit);
        server.setExecutor(executor);
        server.start();
        LOG.info("Reliable-redis dashboard of the queues under the key prefix '{}' at {} ({}, {})", queuesPrefix, url(),
                access.hasLogin() ? "login with its token"
                        : "no login: keep it on a private address or behind the application's own security",
                access.isReadOnly() ? "read-only" : "with redrive and purge");
    }

    public synchronized void stop() {
        if (server == null) {
            return;
        }
        server.stop(0);
        executor.shutdown(COMMAND_TIMEOUT);
        gateway.close();
        shutdownResources();
        server = null;
        executor = null;
        gateway = null;
    }

    @Override
    public void close() {
        stop();
    }

    /** The port it listens on. */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("The dashboard is not started");
        }
        return server.getAddress().getPort();
    }

    /** The page's address, such as {@code http://127.0.0.1:8089/}. */
    public synchronized String url() {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + shown + ":" + port() + "/";
    }

    /** Names the prefix, Redis's host and port and the address; never a password. */
    @Override
    public synchronized String toString() {
        String redis = uri != null ? uri.getHost() + ":" + uri.getPort() : "the application's RedisClient";
        return "ReliableRedisDashboard[key prefix " + QueueNames.inSlotGroup(keyPrefix, slotGroup) + ", Redis " + redis
               + ", "
               + (token != null ? "token login, " : "") + (readOnly ? "read-only, " : "")
               + (server != null ? url() : "not started") + "]";
    }

    private RedisGateway openGateway() {
        if (client != null) {
            return RedisGateway.using(client, COMMAND_TIMEOUT);
        }
        resources = RedisGateway.newClientResources();
        return RedisGateway.create(resources, uri, COMMAND_TIMEOUT);
    }

    private void shutdownResources() {
        if (resources != null) {
            resources.shutdown();
            resources = null;
        }
    }

    private static boolean isLoopback(String host) {
        InetAddress address = new InetSocketAddress(host, 0).getAddress();
        return address != null && address.isLoopbackAddress();
    }

    private void notStarted() {
        if (server != null) {
            throw new IllegalStateException("The dashboard is started; set it up before start()");
        }
    }

    /**
     * Runs the dashboard on its own until the JVM is stopped: {@code --redis-uri <uri>} (else the environment
     * variable REDIS_URI, else redis://localhost:6379), {@code --prefix rr}, {@code --slot-group <group>} (else the
     * queues in none), {@code --host 127.0.0.1},
     * {@code --port 0}, {@code --visibility-timeout 30000} (ms), {@code --token-file <file>} (else the environment
     * variable RELIABLE_REDIS_DASHBOARD_TOKEN, else no login), {@code --read-only} and {@code --allow-no-login}.
     */
    public static void main(String[] args) {
        ReliableRedisDashboard dashboard;
        try {
            DashboardArguments arguments = DashboardArguments.parse(args, System.getenv("REDIS_URI"),
                    System.getenv(TOKEN_VARIABLE));
            dashboard = forUri(arguments.redisUri()).keyPrefix(arguments.prefix()).slotGroup(arguments.slotGroup())
                    .visibilityTimeout(arguments.visibilityTimeout()).bind(arguments.host(), arguments.port())
                    .allowHosts(arguments.allowedHosts().toArray(String[]::new));
            if (arguments.token() != null) {
                dashboard.token(arguments.token());
            }
            if (arguments.readOnly()) {
                dashboard.readOnly();
            }
            if (arguments.allowNoLogin()) {
                dashboard.allowNoLogin();
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(DashboardArguments.USAGE);
            System.exit(2);
            return;
        }
        try {
            dashboard.start();
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(dashboard::close, "reliable-redis-dashboard-stop"));
        System.out.println("Reliable-redis dashboard: " + dashboard.url());
    }
}
