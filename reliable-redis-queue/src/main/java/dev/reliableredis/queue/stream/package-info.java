/**
 * Stream mode: a queue on a Redis Stream read by a consumer group, with the retries, dead letters, idempotency and
 * leases of list mode kept beside it by the scripts under {@code lua/stream/} (docs/stream-mode.md).
 */
package dev.reliableredis.queue.stream;
