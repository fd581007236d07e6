/**
 * The Camel component {@code reliable-redis:}: the endpoint and its options, the producer (sends, operations,
 * request-reply, the exactly-once hand-off), the consumer (batches run on their own threads, settled by the outcome
 * of each exchange), health checks, JMX, Micrometer meters, the dev console and an idempotent repository. It knows
 * Camel and calls the queue engine ({@code dev.reliableredis.queue}) for everything Redis.
 */
package dev.reliableredis.camel;
