package dev.reliableredis.camel;

/** The tests of {@link OutcomeTableTest} on a Redis Cluster of three masters, the redisUri listing the nodes. */
@RedisUnderTest(cluster = true)
class OutcomeTableClusterTest extends OutcomeTableTest {
}
