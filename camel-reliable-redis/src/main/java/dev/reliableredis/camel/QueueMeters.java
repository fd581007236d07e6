package dev.reliableredis.camel;

import org.apache.camel.CamelContext;

/**
 * Binds a queue's meters to the application's Micrometer registry when the application has Micrometer. Micrometer
 * is an optional dependency: this class never refers to it, so that it loads without it; the class that does is only
 * loaded when Micrometer is on the classpath.
 */
final class QueueMeters {

    private static final String METER_REGISTRY = "io.micrometer.core.instrument.MeterRegistry";

    private QueueMeters() {
    }

    /** Returns what removes the meters again; does nothing without Micrometer or a MeterRegistry. */
    static AutoCloseable bind(CamelContext context, QueueMonitor monitor) {
        if (context.getClassResolver().resolveClass(METER_REGISTRY) == null) {
            return () -> { };
        }
        return MicrometerQueueMeters.bind(context, monitor);
    }
}
