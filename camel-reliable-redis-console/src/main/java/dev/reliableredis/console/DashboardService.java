package dev.reliableredis.console;

import java.util.Objects;

import org.apache.camel.Service;

/**
 * The dashboard as a Camel {@link Service}: added to a Camel context ({@code context.addService(...)}), it starts and
 * stops with it. The dashboard itself needs no Camel; only this adapter does.
 */
public final class DashboardService implements Service {

    private final ReliableRedisDashboard dashboard;

    public DashboardService(ReliableRedisDashboard dashboard) {
        this.dashboard = Objects.requireNonNull(dashboard, "dashboard");
    }

    @Override
    public void start() {
        dashboard.start();
    }

    @Override
    public void stop() {
        dashboard.stop();
    }

    @Override
    public void close() {
        dashboard.close();
    }

    public ReliableRedisDashboard dashboard() {
        return dashboard;
    }
}
