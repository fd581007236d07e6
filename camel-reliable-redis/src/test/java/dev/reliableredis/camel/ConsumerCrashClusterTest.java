package dev.reliableredis.camel;

/** The tests of {@link ConsumerCrashTest} on a Redis Cluster of three masters, the redisUri listing the nodes. */
@RedisUnderTest(cluster = true)
class ConsumerCrashClusterTest extends ConsumerCrashTest {
}
