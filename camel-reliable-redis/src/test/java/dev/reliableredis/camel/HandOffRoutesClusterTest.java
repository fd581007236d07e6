package dev.reliableredis.camel;

import dev.reliableredis.testsupport.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The tests of {@link HandOffRoutesTest} on a Redis Cluster of three masters, every queue in the component's slot
 * group, so that each hand-off is one script call there too. (The test of a lost commit reply runs on a Redis of its
 * own, which it pauses, either way.)
 */
class HandOffRoutesClusterTest extends HandOffRoutesTest {

    /** Hides the base class's: JUnit runs only this one. */
    @BeforeAll
    static void startRedis() {
        cluster = RedisCluster.start(3);
        slotGroup = "flow";
    }

    @AfterAll
    static void stopRedis() {
        cluster.close();
        cluster = null;
        slotGroup = null;
    }
}
