/**
 * The benchmark: contenders run side by side on one Redis, in rounds, with throughput, latency and the CPU of Redis
 * and of the client per message measured, and docs/performance.md written from the medians (docs/performance.md).
 */
package dev.reliableredis.bench;
