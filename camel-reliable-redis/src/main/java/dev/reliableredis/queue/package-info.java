/**
 * The queue engine: a reliable queue on Redis, with no Camel in it. {@link dev.reliableredis.queue.ReliableQueue}
 * (opened by {@link dev.reliableredis.queue.Queues}) enqueues, claims under a lease, settles and keeps house, each
 * operation one Lua script call timed by the Redis clock; {@link dev.reliableredis.queue.RedisGateway} is its
 * connection to a standalone, Sentinel or Cluster Redis. Beside that API are the Camel-free parts of consuming
 * (claimers, lease keeping, batched settlements, backoff) and the plumbing the modes share (script loading, call
 * batching, header encoding, error descriptions). The modes live in {@code list}, {@code stream} and
 * {@code sharded}.
 */
package dev.reliableredis.queue;
