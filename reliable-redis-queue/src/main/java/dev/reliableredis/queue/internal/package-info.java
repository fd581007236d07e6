/**
 * The engine's plumbing, public only so that its own packages can share it, as Lettuce keeps
 * {@code io.lettuce.core.internal}: Lua script loading, byte and header encoding, the server clock and the reading
 * of Redis errors. It imports no other package of the engine. Nothing outside {@code dev.reliableredis.queue} uses
 * it, and it may change in any release.
 */
package dev.reliableredis.queue.internal;
