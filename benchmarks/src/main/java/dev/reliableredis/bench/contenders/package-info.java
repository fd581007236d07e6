/**
 * The benchmark's Java contenders, each behind one interface: the component's routes, the seed recipe, batched
 * scripts, raw Redis Lists and Streams, and camel-spring-rabbitmq (BullMQ runs in Node, started by {@code Bullmq}).
 */
package dev.reliableredis.bench.contenders;
