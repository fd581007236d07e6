package dev.reliableredis.soak;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

import dev.reliableredis.camel.ReliableRedisComponent;
import dev.reliableredis.camel.ReliableRedisConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A consumer JVM of a soak run: processes messages, failing some and taking too long on others, and writes every
 * attempt to its ledger file ("A id count ms" when it starts, "D id count ms" when it is done). Each line is one
 * unbuffered write, so it survives a SIGKILL of this JVM.
 */
public final class SoakConsumer {

    private SoakConsumer() {
    }

    /** Arguments: redisUri endpointUri ledgerFile concurrentConsumers failureRate slowRate visibilityMs. */
    public static void main(String[] args) throws Exception {
        String redisUri = args[0];
        String endpoint = args[1] + "&concurrentConsumers=" + args[3];
        double failureRate = Double.parseDouble(args[4]);
        double slowRate = Double.parseDouble(args[5]);
        long slowMs = Long.parseLong(args[6]) * 3 / 2;
        FileOutputStream ledger = new FileOutputStream(args[2], true);

        CamelContext camel = new DefaultCamelContext();
        camel.getComponent("reliable-redis", ReliableRedisComponent.class).setRedisUri(redisUri);
        camel.addRoutes(new RouteBuilder() {
            public void configure() {
                errorHandler(defaultErrorHandler().logExhausted(false));
                from(endpoint).process(e -> {
                    String id = e.getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);
                    int count = e.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class);
                    write(ledger, "A " + id + " " + count);
                    double dice = ThreadLocalRandom.current().nextDouble();
                    if (dice < failureRate) {
                        throw new IllegalStateException("soak failure of " + id);
                    }
                    if (dice < failureRate + slowRate) {
                        Thread.sleep(slowMs);
                    }
                    write(ledger, "D " + id + " " + count);
                });
            }
        });
        camel.start();
        new CountDownLatch(1).await();
    }

    private static void write(FileOutputStream ledger, String line) throws IOException {
        byte[] bytes = (line + " " + System.currentTimeMillis() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (ledger) {
            ledger.write(bytes);
        }
    }
}
