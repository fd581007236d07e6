/**
 * The engine's plumbing, public only so that its own packages can share it, as Lettuce keeps
 * {@code io.lettuce.core.internal}: Lua script loading and calls, byte and header encoding, and the reading of
 * Redis errors. Nothing outside {@code dev.reliableredis.queue} uses it, and it may change in any release.
 */
package dev.reliableredis.queue.internal;
