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
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.RouteDefinition;

/**
 * A consumer in a JVM of its own, for tests that kill it; it logs in as the tests' components do. It prints
 * "PROCESSING <id> <deliveryCount>" and "BATCH <id> <index> <size>" for every message and then either hangs (until
 * the test kills it with SIGKILL), or halts the JVM at once ("halt": a message that kills its consumer), or
 * ("halt-on:<id>") completes every message but that one, on which it halts once the settlements of the messages
 * before it have landed (so that a lost ack does not blur what the test checks), or ("hang-after:<uri>") sends the
 * message to the endpoint uri first, then prints and hangs, or ("complete") completes every message.
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

    /** Starts {@code java ConsumerJvm <redisUri> <endpointUri> <behaviour>} with this JVM's class path. */
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

    /** Lines the JVM printed that start with BATCH. */
    public List<String> batches() {
        return lines.stream().filter(l -> l.startsWith("BATCH ")).toList();
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
        String behaviour = args[2];
        String poison = behaviour.startsWith("halt-on:") ? behaviour.substring("halt-on:".length()) : null;
        String sendTo = behaviour.startsWith("hang-after:") ? behaviour.substring("hang-after:".length()) : null;
        CamelContext context = new DefaultCamelContext();
        CamelRedisTestBase.connect(context.getComponent("reliable-redis", ReliableRedisComponent.class), redisUri);
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                RouteDefinition route = from(endpointUri).routeId("victim");
                if (sendTo != null) {
                    route.to(sendTo);
                }
                route.process(e -> {
                    Object id = e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID);
                    System.out.println("PROCESSING " + id + " "
                                       + e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT));
                    System.out.println("BATCH " + id + " " + e.getProperty(Exchange.BATCH_INDEX) + " "
                                       + e.getProperty(Exchange.BATCH_SIZE));
                    System.out.flush();
                    if ("complete".equals(behaviour) || poison != null && !poison.equals(id)) {
                        return;
                    }
                    if (poison != null) {
                        awaitEarlierSettlements(e);
                    }
                    if (poison != null || "halt".equals(behaviour)) {
                        Runtime.getRuntime().halt(137);
                    }
                    new java.util.concurrent.CountDownLatch(1).await();
                });
            }

            /** Until the consumer holds no more than this message and the ones waiting behind it. */
            private void awaitEarlierSettlements(Exchange e) {
                ReliableRedisConsumer consumer = (ReliableRedisConsumer) getContext().getRoute("victim").getConsumer();
                int held = e.getProperty(Exchange.BATCH_SIZE, Integer.class)
                           - e.getProperty(Exchange.BATCH_INDEX, Integer.class);
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                        .until(() -> consumer.getInflightCount() <= held);
            }
        });
        context.start();
        new java.util.concurrent.CountDownLatch(1).await();
    }
}
