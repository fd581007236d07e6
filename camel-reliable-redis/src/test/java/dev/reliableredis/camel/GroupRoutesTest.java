package dev.reliableredis.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * FIFO message groups from a route's point of view (list mode): two CamelContexts of 4 threads each on one queue,
 * random processing times and failing heads, and a consumer JVM killed mid-group; the group id travels as an exchange
 * property, never as a header.
 */
class GroupRoutesTest extends CamelRedisTestBase {

    private static final List<String> GROUPS = List.of("A", "B", "C", "D");
    private static final int PER_GROUP = 25;

    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> order = new ConcurrentHashMap<>();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();

    private void sendGroups(String queue) {
        for (int n = 0; n < PER_GROUP; n++) {
            for (String group : GROUPS) {
                template.sendBodyAndHeader("reliable-redis:" + queue, String.valueOf(n), ReliableRedisConstants.GROUP_ID,
                        group);
            }
        }
    }

    /** Runs one delivery: counts overlaps within its group, sleeps 0-10 ms, fails each group's 3rd message twice. */
    private void process(Exchange exchange) throws Exception {
        String group = exchange.getProperty(ReliableRedisConstants.GROUP_ID, String.class);
        int n = exchange.getMessage().getBody(Integer.class);
        if (running.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(10));
            if (n == 2 && exchange.getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT, Integer.class) < 3) {
                failures.incrementAndGet();
                throw new IllegalStateException("the head of group " + group + " fails");
            }
            order.computeIfAbsent(group, g -> new CopyOnWriteArrayList<>()).add(n);
        } finally {
            running.get(group).decrementAndGet();
        }
    }

    @Test
    void twoContextsRunEachGroupOneAtATimeInOrderThroughRandomDelaysAndFailingHeads() throws Exception {
        sendGroups("g");
        String endpoint = "reliable-redis:g?concurrentConsumers=4&maxMessagesPerPoll=10&retryDelay=10&maxRetries=3";
        List<CamelContext> contexts = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                contexts.add(startedContext(new RouteBuilder() {
                    public void configure() {
                        from(endpoint).process(GroupRoutesTest.this::process);
                    }
                }));
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> order.values().stream().mapToInt(List::size).sum() == GROUPS.size() * PER_GROUP);
        } finally {
            contexts.forEach(CamelContext::stop);
        }

        assertThat(overlaps).as("two exchanges of one group at once").hasValue(0);
        assertThat(failures).as("each group's failing head failed twice").hasValue(2 * GROUPS.size());
        List<Integer> inOrder = java.util.stream.IntStream.range(0, PER_GROUP).boxed().toList();
        assertThat(order).containsOnlyKeys(GROUPS).allSatisfy((group, ns) -> assertThat(ns).isEqualTo(inOrder));
        awaitStats("g", 0, 0, 0, 0);
    }

    @Test
    void aConsumerKilledMidGroupLeavesItsGroupInOrderTheHeldMessageFirst() throws Exception {
        String endpoint = "reliable-redis:killed?visibilityTimeout=1500&concurrentConsumers=3&reaperInterval=100";
        for (int n = 0; n < 5; n++) {
            template.sendBodyAndHeader("reliable-redis:killed", "a" + n, ReliableRedisConstants.GROUP_ID, "A");
        }
        ConsumerJvm victim = ConsumerJvm.start(redisUri(), endpoint, "hang");
        try {
            await("the victim holds the group's first message").atMost(Duration.ofSeconds(30))
                    .until(() -> !victim.processed().isEmpty());
            assertThat(stats("killed").get("inflight")).as("one message of the group out").isEqualTo(1L);
        } finally {
            victim.kill();
        }

        routes(new RouteBuilder() {
            public void configure() {
                from(endpoint).process(received::add);
            }
        });

        awaitReceived(5);
        assertThat(received).extracting(e -> e.getMessage().getBody(String.class))
                .containsExactly("a0", "a1", "a2", "a3", "a4");
        assertThat(received.get(0).getMessage().getHeader(ReliableRedisConstants.DELIVERY_COUNT)).isEqualTo(2);
        assertThat(received).allSatisfy(e -> {
            assertThat(e.getProperty(ReliableRedisConstants.GROUP_ID)).isEqualTo("A");
            assertThat(e.getMessage().getHeaders()).doesNotContainKey(ReliableRedisConstants.GROUP_ID);
        });
        awaitStats("killed", 0, 0, 0, 0);
    }

    @Test
    void aGroupIdOnAStreamModeQueueOrWithADelayFailsTheExchangeNamingIt() {
        Exchange onStream = template.request("reliable-redis:s?mode=stream",
                e -> e.getMessage().setHeaders(Map.of(ReliableRedisConstants.GROUP_ID, "A")));
        Exchange delayed = template.request("reliable-redis:q", e -> e.getMessage().setHeaders(
                Map.of(ReliableRedisConstants.GROUP_ID, "A", ReliableRedisConstants.DELAY, 100L)));

        assertThat(onStream.getException()).hasMessageContaining(ReliableRedisConstants.GROUP_ID)
                .hasMessageContaining("stream-mode queue 's'");
        assertThat(delayed.getException()).hasMessageContaining("of group 'A' has a delay of 100 ms");
        assertThat(raw.exists(key("q", "messages"), key("s", "stream"))).isZero();
    }
}
