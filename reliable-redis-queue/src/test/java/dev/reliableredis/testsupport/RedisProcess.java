package dev.reliableredis.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.SslOptions;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.api.sync.RedisKeyCommands;
import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * A real redis-server process on a free loopback port, started by a test and stopped or killed by it. Uses the
 * binary the system property {@value #SERVER_PROPERTY} names, else redis-server from the PATH, else the binary
 * that org.signal:embedded-redis ships. Under {@code -Dreliable-redis.test.acl=true} it has the
 * {@link LeastPrivilegeUser} from its start on.
 */
public final class RedisProcess implements AutoCloseable {

    private static final int PORT_ATTEMPTS = 5;
    /** The server binary to test against instead of the default, as .ci/redis-versions sets it per version. */
    public static final String SERVER_PROPERTY = "redis.server";

    private static Path binary;
    private static Path binary62;

    private final Path server;
    private final int port;
    private final Path dir;
    private final List<String> extraArgs;
    /** The certificates of a server that speaks only TLS, else null. */
    private final TestCertificates tls;
    /** The sentinel.conf of a Sentinel, written to its directory before it starts; null for a server. */
    private final String sentinelConfig;
    private Process process;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    private RedisProcess(Path server, int port, Path dir, List<String> extraArgs, TestCertificates tls,
            String sentinelConfig) {
        this.server = server;
        this.port = port;
        this.dir = dir;
        this.extraArgs = extraArgs;
        this.tls = tls;
        this.sentinelConfig = sentinelConfig;
    }

    /** Starts a server without persistence; extra args are redis-server options such as "--requirepass", "s3cret". */
    public static RedisProcess start(String... extraArgs) {
        return started(binary(), null, null, List.of(extraArgs));
    }

    /**
     * Starts a server that speaks only TLS, on {@link #port()}, with the server certificate and the CA of these
     * certificates. Clients need no certificate of their own unless the extra args say
     * {@code "--tls-auth-clients", "yes"}. Where redis-server is built without TLS, the test is skipped, saying so.
     */
    public static RedisProcess startTls(TestCertificates certificates, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--tls-cert-file", certificates.serverCert().toString(),
                "--tls-key-file", certificates.serverKey().toString(),
                "--tls-ca-cert-file", certificates.caCert().toString(), "--tls-auth-clients", "no"));
        args.addAll(List.of(extraArgs));
        try {
            return started(binary(), certificates, null, args);
        } catch (IllegalStateException e) {
            String log = String.valueOf(e.getMessage());
            // Redis 7.0 built without TLS does not know the tls-* directives; 7.2 and later lack the tls listener
            if (log.contains("Bad directive") && log.contains("'tls-")
                || log.contains("Failed finding connection listener of tls")) {
                Assumptions.abort("redis-server " + binary() + " is built without TLS (make BUILD_TLS=yes), so "
                                  + "the TLS tests cannot run; Debian's redis-server has TLS. " + log);
            }
            throw e;
        }
    }

    /**
     * Starts a Sentinel ({@code redis-server <conf> --sentinel}) with this sentinel.conf, such as {@code sentinel
     * monitor mymaster 127.0.0.1 6379 1}. The file is written to the process's own directory, since Sentinel rewrites
     * it as it learns about replicas and failovers.
     */
    public static RedisProcess startSentinel(String config) {
        return started(binary(), null, config, List.of());
    }

    /**
     * Starts a Redis 6.2 server, the oldest the component supports, from the binary that
     * com.github.codemonstur:embedded-redis ships.
     */
    public static RedisProcess startRedis62(String... extraArgs) {
        return started(binary62(), null, null, List.of(extraArgs));
    }

    /**
     * Starts a server on a port that was free a moment ago. Between that moment and redis-server's bind, the port
     * can become the local end of some outgoing connection (both come from the ephemeral range); then another port
     * is tried.
     */
    private static RedisProcess started(Path server, TestCertificates tls, String sentinelConfig,
            List<String> extraArgs) {
        for (int attempt = 1; ; attempt++) {
            RedisProcess redis;
            try {
                redis = new RedisProcess(server, freePort(), Files.createTempDirectory("redis-test"), extraArgs,
                        tls, sentinelConfig);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                redis.launch();
                return redis;
            } catch (IllegalStateException e) {
                if (attempt == PORT_ATTEMPTS || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    /** A port nothing listens on now, for a server to be started later. */
    public static RedisProcess onFreePort(String... extraArgs) {
        try {
            return new RedisProcess(binary(), freePort(), Files.createTempDirectory("redis-test"), List.of(extraArgs),
                    null, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void launch() {
        List<String> command = new ArrayList<>(List.of(server.toString()));
        try {
            if (sentinelConfig != null) {
                // the configuration file must be the first argument
                Path config = Files.writeString(dir.resolve("sentinel.conf"), sentinelConfig);
                command.addAll(List.of(config.toString(), "--sentinel"));
            }
            // a TLS server has no plain port: the port the readiness check polls is its TLS port
            command.addAll(tls == null ? List.of("--port", String.valueOf(port))
                    : List.of("--port", "0", "--tls-port", String.valueOf(port)));
            command.addAll(List.of("--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                    dir.toString()));
            command.addAll(extraArgs);
            if (LeastPrivilegeUser.enabled() && sentinelConfig == null) {
                command.addAll(LeastPrivilegeUser.serverArgs(extraArgs.contains("--cluster-enabled")));
            }
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await("redis-server on port " + port).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(this::answers);
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("redis-server exited: " + log());
        }
        try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return false;
        } catch (IOException inUse) {
            return true;
        }
    }

    public int port() {
        return port;
    }

    /** The process id, for signals such as SIGSTOP. */
    public synchronized long pid() {
        return process.pid();
    }

    public String uri() {
        return (tls == null ? "redis://" : "rediss://") + "127.0.0.1:" + port;
    }

    /** A String connection for assertions and setup; password-protected servers need {@link #commands(String)}. */
    public synchronized RedisCommands<String, String> commands() {
        return commands(null);
    }

    /**
     * The keys matching the pattern, by SCAN: {@code KEYS} has a different binary signature in Lettuce 6 and 7,
     * and the tests run on both.
     */
    public static List<String> keys(RedisKeyCommands<String, String> commands, String pattern) {
        return ScanIterator.scan(commands, ScanArgs.Builder.matches(pattern)).stream().toList();
    }

    public synchronized RedisCommands<String, String> commands(String password) {
        if (connection == null) {
            RedisURI uri = RedisURI.create(uri());
            if (password != null) {
                uri.setCredentialsProvider(new StaticCredentialsProvider(null, password.toCharArray()));
            }
            client = RedisClient.create(uri);
            if (tls != null) {
                // trusts the test CA, and has a client certificate for a server that asks for one
                client.setOptions(ClientOptions.builder().sslOptions(SslOptions.builder()
                        .truststore(tls.truststore().toFile(), TestCertificates.STORE_PASSWORD)
                        .keystore(tls.clientKeystore().toFile(), TestCertificates.STORE_PASSWORD.toCharArray())
                        .build()).build());
            }
            connection = client.connect();
        }
        return connection.sync();
    }

    /** SIGKILL: the server dies without saving anything. */
    public synchronized void kill() {
        closeClient();
        process.destroyForcibly();
        waitFor();
    }

    /** SIGSTOP: the server holds its connections open and answers nothing until {@link #resume()}. */
    public void pause() {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("-CONT");
    }

    private void signal(String signal) {
        try {
            new ProcessBuilder("kill", signal, String.valueOf(pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized void close() {
        closeClient();
        if (process != null) {
            process.destroy();
            waitFor();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void waitFor() {
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeClient() {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            client = null;
            connection = null;
        }
    }

    /** A loopback port nothing listens on now. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static synchronized Path binary() {
        if (binary == null) {
            String arch = System.getProperty("os.arch").contains("aarch64") ? "arm64" : "amd64";
            String os = System.getProperty("os.name").toLowerCase().contains("mac") ? "darwin" : "linux";
            String chosen = System.getProperty(SERVER_PROPERTY);
            binary = chosen != null ? Path.of(chosen)
                    : onPath().orElseGet(() -> extract("/redis-server-7.0.15-" + os + "-" + arch));
        }
        return binary;
    }

    private static synchronized Path binary62() {
        if (binary62 == null) {
            binary62 = extract("/redis-server-6.2.6-v5-linux-amd64");
        }
        return binary62;
    }

    private static Optional<Path> onPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Copies a redis-server binary that a test dependency ships to a temporary file. */
    private static Path extract(String resource) {
        try (InputStream in = RedisProcess.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No embedded redis-server binary " + resource + " on the test class path");
            }
            Path file = Files.createTempFile("redis-server", "");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().setExecutable(true);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
