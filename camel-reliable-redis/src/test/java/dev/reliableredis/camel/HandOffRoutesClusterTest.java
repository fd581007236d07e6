package dev.reliableredis.camel;

/**
 * The tests of {@link HandOffRoutesTest} on a Redis Cluster of three masters, every queue in the component's slot
 * group, so that each hand-off is one script call there too. (The test of a lost commit reply runs on a Redis of its
 * own, which it pauses, either way.)
 */
@RedisUnderTest(cluster = true, slotGroup = "flow")
class HandOffRoutesClusterTest extends HandOffRoutesTest {
}
