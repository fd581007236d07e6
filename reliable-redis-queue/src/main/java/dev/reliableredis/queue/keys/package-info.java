/**
 * A queue's names in Redis: the key of each part of a queue and of its shards
 * ({@link dev.reliableredis.queue.keys.QueueNames}), a key read back into its queue and part, and the layout version
 * this engine reads and writes. It uses no other package of the engine.
 */
package dev.reliableredis.queue.keys;
