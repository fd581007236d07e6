package dev.reliableredis.example.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.RetryAfterException;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.runtime.QueueConsumer;
import io.lettuce.core.RedisClient;

/**
 * The queue engine from plain Java, no Camel: ten orders enqueued and billed by four threads. Order 3's card is
 * declined every time, so after its retries it is a dead letter; order 5's payment provider asks it to wait once,
 * which costs no retry. Prints what happened and exits 0 when it is what the outcome table says.
 */
public final class EngineOrders {

    private EngineOrders() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args.length > 0 ? args[0] : System.getenv().getOrDefault("REDIS_URI", "redis://localhost:6379");
        RedisClient client = RedisClient.create(uri);
        boolean asTheTableSays;
        try (RedisGateway redis = RedisGateway.using(client, Duration.ofSeconds(5))) {
            asTheTableSays = run(redis);
        } finally {
            client.shutdown();
        }
        System.exit(asTheTableSays ? 0 : 1);
    }

    private static boolean run(RedisGateway redis) throws Exception {
        // a queue of its own per run, so that a second run is not a resend of the first's orders
        String name = "engine-orders-" + UUID.randomUUID().toString().substring(0, 8);
        // the check an endpoint makes before its first send: the queue's layout version and shard count
        Queues.shardCount(redis, "rr", name, 1, null).check();
        QueueSettings settings = QueueSettings.builder().maxRetries(2).retryDelay(Duration.ofMillis(100))
                .maxRetryDelay(Duration.ofSeconds(5)).build();
        ReliableQueue queue = Queues.open(redis, "rr", name, 1, null, settings);

        List<NewMessage> orders = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            orders.add(new NewMessage("order-" + i, ("{\"order\": " + i + "}").getBytes(StandardCharsets.UTF_8),
                    Map.of("customer", "c-" + (i % 3)), 0));
        }
        queue.enqueue(orders);

        Set<String> billed = ConcurrentHashMap.newKeySet();
        try (QueueConsumer consumer = QueueConsumer.of(queue).threads(4)
                .errors((what, cause) -> System.err.println(what + ": " + cause))
                .start(order -> {
                    if (order.messageId().equals("order-3")) {
                        throw new IllegalStateException("card declined");
                    }
                    if (order.messageId().equals("order-5") && order.deliveryCount() == 1) {
                        throw new RetryAfterException(Duration.ofMillis(200));
                    }
                    billed.add(order.messageId());
                })) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!settled(queue.stats()) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }

        QueueStats stats = queue.stats();
        List<BrowsedMessage> dead = queue.browse(QueueSection.DEAD, 10);
        System.out.println("billed " + billed.size() + " of 10 orders; dead letters: " + stats.dead());
        dead.forEach(d -> System.out.println("  " + d.messageId() + " after " + d.deliveries() + " deliveries: "
                                             + d.failure()));
        queue.purge();
        return billed.size() == 9 && dead.size() == 1 && dead.get(0).messageId().equals("order-3")
               && dead.get(0).deliveries() == 3;
    }

    private static boolean settled(QueueStats stats) {
        return stats.ready() == 0 && stats.inflight() == 0 && stats.delayed() == 0 && stats.dead() == 1;
    }
}
