/**
 * The consumer runtime, with no Camel in it: the {@link dev.reliableredis.queue.runtime.BatchLoop} of each consumer
 * thread (hold, run, give back on a stop), the {@link dev.reliableredis.queue.runtime.JointClaim} through which a
 * consumer's idle threads claim together, the {@link dev.reliableredis.queue.runtime.LeaseKeeper} and
 * {@link dev.reliableredis.queue.runtime.Settler} that extend and settle the leases, the
 * {@link dev.reliableredis.queue.runtime.Reaper}, the {@link dev.reliableredis.queue.runtime.ScheduleFirer}, the
 * {@link dev.reliableredis.queue.runtime.OutageReport} that all of them report Redis failures to, and the counters and
 * stats cache that health checks, JMX and meters read. A Camel consumer builds these, runs one exchange per
 * delivery and tells the settler each exchange's outcome.
 */
package dev.reliableredis.queue.runtime;
