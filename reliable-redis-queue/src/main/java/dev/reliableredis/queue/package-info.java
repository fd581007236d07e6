/**
 * The queue engine: a reliable queue on Redis, with no Camel in it. {@link dev.reliableredis.queue.ReliableQueue}
 * (opened by {@link dev.reliableredis.queue.Queues}) enqueues, claims under a lease, settles and keeps house, each
 * operation one Lua script call timed by the Redis clock. Its connection to Redis is in {@code redis}, the values of
 * a schedule in {@code schedule}, its key names in {@code keys}, the batching of calls in {@code batch}; what the
 * modes share beneath the API in {@code calls}, the modes in {@code list}, {@code stream} and {@code sharded}; the
 * consumer runtime (batch loops, lease keeping, settling, reaping) in {@code runtime}; the plumbing (script loading,
 * header encoding, error descriptions) in {@code internal}. Dependencies go one way: {@code internal}, {@code keys}
 * and {@code batch} import no other package of the engine, {@code redis} and {@code schedule} only
 * {@code internal}, and this API neither {@code calls} nor {@code runtime}.
 */
package dev.reliableredis.queue;
