/**
 * The script calls both modes share: {@link dev.reliableredis.queue.calls.QueueCalls} (running a queue's scripts,
 * describing their failures, the arguments settlements pass), schedules and replies. The list and stream queues
 * build on it; the API in {@code dev.reliableredis.queue} does not use it.
 */
package dev.reliableredis.queue.calls;
