package dev.reliableredis.soak;

import java.util.Map;
import java.util.SortedMap;

/** The figures of one soak run. */
public record SoakReport(SoakConfig config, Map<Fault, Long> faults, long enqueued, long processed,
        long deadLettered, long lost, long attempts, long duplicates, long unexplainedDuplicates, long stalls,
        SortedMap<Integer, Long> deliveriesPerMessage, long seconds) {

    public boolean everyFaultInjected() {
        return faults.size() == Fault.values().length;
    }

    @Override
    public String toString() {
        return String.format("""
                soak: mode %s, appendfsync %s, %d consumer JVMs x %d threads, visibility %d ms, %d s
                  faults injected         %s
                  enqueued (acknowledged) %d
                  processed and acked     %d
                  dead-lettered           %d
                  lost                    %d
                  processing attempts     %d
                  duplicate processings   %d (not explained by a fault or stall around them: %d)
                  stalls observed         %d (Redis or the machine late by more than half a lease)
                  deliveries per message  %s
                """, config.mode(), config.appendfsync(), config.consumerJvms(), config.concurrentConsumers(),
                config.visibilityMs(), seconds, faults, enqueued, processed, deadLettered, lost, attempts, duplicates,
                unexplainedDuplicates, stalls, deliveriesPerMessage);
    }
}
