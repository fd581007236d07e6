/**
 * The engine's connection to Redis: {@link dev.reliableredis.queue.redis.RedisGateway} (a standalone, Sentinel or
 * Cluster Redis, its command timeout and the server clock), the checks made when it opens, replica waits, the
 * masking of credentials and the backoff of failing calls. It knows nothing of queues: it imports only
 * {@code internal}, so the queue API above it and the plumbing below it form no cycle.
 */
package dev.reliableredis.queue.redis;
