package dev.reliableredis.camel;

/** The tests of {@link ProducerTest} on a Redis Cluster of three masters, the redisUri listing the nodes. */
@RedisUnderTest(cluster = true)
class ProducerClusterTest extends ProducerTest {
}
