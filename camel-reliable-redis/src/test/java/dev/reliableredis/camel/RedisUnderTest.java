package dev.reliableredis.camel;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The Redis a test class of {@link CamelRedisTestBase} runs against when it is not one plain redis-server: a Redis
 * Cluster of three masters (the cluster variant of a test class is {@code @RedisUnderTest(cluster = true)} on a
 * subclass, nothing more), the component's slot group, or the server's arguments. The base class reads it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
@interface RedisUnderTest {

    /** A Redis Cluster of three masters, the redisUri listing its nodes. */
    boolean cluster() default false;

    /** The component's slotGroup, so that every queue of the test shares one Cluster slot; none when empty. */
    String slotGroup() default "";

    /** The arguments of the redis-server, such as {@code --rename-command CONFIG ""}. */
    String[] arguments() default {};
}
