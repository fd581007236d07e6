/**
 * What the modes share beneath the API: {@link dev.reliableredis.queue.calls.QueueCalls} (running a queue's scripts,
 * describing their failures, the arguments settlements pass), schedules and replies, and the claimers' common parts.
 * The list, stream and sharded queues build on it; the API in {@code dev.reliableredis.queue} does not use it.
 */
package dev.reliableredis.queue.calls;
