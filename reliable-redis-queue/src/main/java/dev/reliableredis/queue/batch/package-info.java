/**
 * Requests from many threads batched into script calls: each call holds what waited while the one before was under
 * way, up to what one call may hold. It uses no other package of the engine.
 */
package dev.reliableredis.queue.batch;
