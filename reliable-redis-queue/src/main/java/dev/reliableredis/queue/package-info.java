/**
 * The queue engine: a reliable queue on Redis, with no Camel in it. {@link dev.reliableredis.queue.ReliableQueue}
 * (opened by {@link dev.reliableredis.queue.Queues}) enqueues, claims under a lease, settles and keeps house, each
 * operation one Lua script call timed by the Redis clock; {@link dev.reliableredis.queue.RedisGateway} is its
 * connection to a standalone, Sentinel or Cluster Redis. Beside that API are the claimers, backoff and call
 * batching the modes share. The modes live in {@code list}, {@code stream} and {@code sharded}; the consumer
 * runtime (batch loops, lease keeping, settling, reaping) in {@code runtime}; the plumbing (script loading, header
 * encoding, error descriptions) in {@code internal}.
 */
package dev.reliableredis.queue;
