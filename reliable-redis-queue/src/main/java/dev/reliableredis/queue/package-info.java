/**
 * The queue engine: a reliable queue on Redis, with no Camel in it. {@link dev.reliableredis.queue.ReliableQueue}
 * (opened by {@link dev.reliableredis.queue.Queues}) enqueues, claims under a lease, settles and keeps house, each
 * operation one Lua script call timed by the Redis clock; its connection to Redis is in {@code redis}, the values of
 * a schedule in {@code schedule}. What the modes share beneath the API lives in {@code calls}, the modes in
 * {@code list}, {@code stream} and {@code sharded}; the consumer runtime (batch loops, lease keeping, settling,
 * reaping) in {@code runtime}; the plumbing (script loading, header encoding, error descriptions) in
 * {@code internal}. Dependencies go one way: {@code internal} imports no other package of the engine,
 * {@code redis} and {@code schedule} only {@code internal}, and this API neither {@code calls} nor {@code runtime}.
 */
package dev.reliableredis.queue;
