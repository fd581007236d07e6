package dev.reliableredis.bench;

import java.lang.management.ManagementFactory;

/** The CPU time this JVM used, all its threads, in the kernel and in user space. */
final class JvmCpu {

    private JvmCpu() {
    }

    static long micros() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1_000;
    }
}
