package dev.reliableredis.camel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import dev.reliableredis.testsupport.LeastPrivilegeUser;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A consumer in a JVM of its own, for tests that kill it; it logs in as the tests' components do. It prints
 * "PROCESSING <id> <deliveryCount>" for every message and then either hangs (until the test kills it with SIGKILL)
 * or halts the JVM at once ("halt": a message that kills its consumer).
 */
public final class ConsumerJvm {

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ConsumerJvm(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readLines, "consumer-jvm-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code java ConsumerJvm <redisUri> <endpointUri> <hang|halt>} with this JVM's class path. */
    public static ConsumerJvm start(String redisUri, String endpointUri, String behaviour) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.logFile=System.err",
                "-D" + LeastPrivilegeUser.PROPERTY + "=" + LeastPrivilegeUser.enabled(), ConsumerJvm.class.getName(),
                redisUri, endpointUri, behaviour);
        try {
            return new ConsumerJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readLines() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the process died: what it printed so far is in lines
        }
    }

    /** Lines the JVM printed that start with PROCESSING. */
    public List<String> processed() {
        return lines.stream().filter(l -> l.startsWith("PROCESSING ")).toList();
    }

    public String output() {
        return String.join("\n", lines);
    }

    public Process process() {
        return process;
    }

    /** SIGKILL: no shutdown hook, no ack, nothing. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    public static void main(String[] args) throws Exception {
        String redisUri = args[0];
        String endpointUri = args[1];
        boolean halt = "halt".equals(args[2]);
        CamelContext context = new DefaultCamelContext();
        CamelRedisTestBase.connect(context.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri);
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(endpointUri).process(e -> {
                    System.out.println("PROCESSING " + e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID) + " "
                                       + e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT));
                    System.out.flush();
                    if (halt) {
                        Runtime.getRuntime().halt(137);
                    }
                    new java.util.concurrent.CountDownLatch(1).await();
                });
            }
        });
        context.start();
        new java.util.concurrent.CountDownLatch(1).await();
    }
}
