/**
 * List mode: a queue of Redis Lists, sorted sets and hashes moved by the Lua scripts under {@code lua/}, each key
 * under the queue's hash tag (docs/redis-layout.md).
 */
package dev.reliableredis.queue.list;
