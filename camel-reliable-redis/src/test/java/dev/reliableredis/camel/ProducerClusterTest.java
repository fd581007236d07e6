package dev.reliableredis.camel;

import dev.reliableredis.testsupport.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The tests of {@link ProducerTest} on a Redis Cluster of three masters, the redisUri listing the nodes. */
class ProducerClusterTest extends ProducerTest {

    /** Hides the base class's: JUnit runs only this one. */
    @BeforeAll
    static void startRedis() {
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stopRedis() {
        cluster.close();
        cluster = null;
    }
}
