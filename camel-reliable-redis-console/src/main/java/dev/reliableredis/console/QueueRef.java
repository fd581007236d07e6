package dev.reliableredis.console;

/**
 * One row of the dashboard: a list-mode queue, or one consumer group of a stream-mode queue (each group has its
 * own ready, in-flight and retry counts).
 *
 * @param name  the queue name
 * @param mode  list or stream
 * @param group stream mode: the consumer group, or null while the stream has none; list mode: null
 */
record QueueRef(String name, QueueMode mode, String group) {
}
