package dev.reliableredis.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of a Redis that loses a reply on demand: armed with a command's name, it closes the connection
 * that sends that command next when Redis answers it, instead of passing the answer on. Redis has carried the command out, and the client knows only that it
 * went out: the case of a reply lost after Redis ran the command, which pausing Redis cannot make once a send has a
 * deadline (a paused Redis runs the send late, and so stores nothing).
 */
public final class ReplyCutter implements AutoCloseable {

    private final ServerSocket server;
    private final int redisPort;
    private final AtomicReference<String> armed = new AtomicReference<>();
    private final AtomicInteger cuts = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private ReplyCutter(int redisPort) throws IOException {
        this.redisPort = redisPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(this::accept);
    }

    /** A proxy on a free port of the loopback address, passing everything to the Redis on this port. */
    public static ReplyCutter inFrontOf(RedisProcess redis) throws IOException {
        return new ReplyCutter(redis.port());
    }

    public String uri() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /**
     * Loses the reply to the next command of this name (as Lettuce sends it, e.g. EVALSHA) on any connection, closing
     * that connection instead; the replies of other commands (a blocking read's) pass.
     */
    public void cutReplyTo(String command) {
        armed.set(command);
    }

    /** How many replies were lost so far. */
    public int cuts() {
        return cuts.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket(InetAddress.getLoopbackAddress(), redisPort);
                sockets.add(client);
                sockets.add(redis);
                AtomicBoolean cutNextReply = new AtomicBoolean();
                daemon(() -> pump(client, redis, cutNextReply, false));
                daemon(() -> pump(redis, client, cutNextReply, true));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean cutNextReply, boolean replies) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                String command = armed.get();
                if (!replies && command != null && new String(buffer, 0, read, StandardCharsets.ISO_8859_1)
                        .contains(command) && armed.compareAndSet(command, null)) {
                    cutNextReply.set(true);
                }
                if (replies && cutNextReply.compareAndSet(true, false)) {
                    cuts.incrementAndGet();
                    break;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // the other direction closed the pair
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void daemon(Runnable task) {
        Thread thread = new Thread(task, "reply-cutter");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that is left to do
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(ReplyCutter::closeQuietly);
    }
}
