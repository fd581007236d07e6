/**
 * The soak and fault-injection harness: producers, consumer JVMs, faults injected into Redis and the consumers,
 * and a ledger kept outside the system that counts every message lost or duplicated (docs/reliability.md).
 */
package dev.reliableredis.soak;
