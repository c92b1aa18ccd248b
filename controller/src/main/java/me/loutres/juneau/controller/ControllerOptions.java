package me.loutres.juneau.controller;

import java.time.Clock;
import java.time.Duration;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.runtime.Leadership;

/**
 * How to run the controller.
 *
 * @param namespace   where the leader-election Lease lives
 * @param leaseName   the Lease's name
 * @param identity    this replica's name in the Lease (the pod name in a cluster)
 * @param metricsPort port of {@code /healthz}, {@code /readyz}, {@code /metrics}; 0 picks a free one, -1 serves none
 * @param workers     Service keys reconciled in parallel (one key is never reconciled twice at once)
 * @param lease       Lease timing
 * @param clock       time source of condition and event timestamps
 * @param arpWithoutAgents a node without an agent Lease may still be elected to answer ARP: only for a stack that
 *                    runs no agents at all ({@code juneau demo}, {@code juneau up}); in a cluster such a node would
 *                    be a silent blackhole (docs/phases-and-conditions.md)
 * @param managed     which Services are Juneau's: {@code --manage-unclassed} adds LoadBalancer Services without a
 *                    class (docs/install.md, "Unclassed Services"); the webhook must be told the same
 */
public record ControllerOptions(String namespace, String leaseName, String identity, int metricsPort, int workers,
        Leadership.Timing lease, Clock clock, boolean arpWithoutAgents, ManagedServices managed) {

    public static final String DEFAULT_LEASE_NAME = "juneau-controller";
    public static final int DEFAULT_METRICS_PORT = 8080;
    public static final int DEFAULT_WORKERS = 4;

    public ControllerOptions {
        managed = managed == null ? ManagedServices.CLASSED : managed;
        if (workers < 1) {
            throw new IllegalArgumentException("--workers must be at least 1, got " + workers);
        }
        if (metricsPort < -1 || metricsPort > 65535) {
            throw new IllegalArgumentException("--metrics-port must be 0-65535 (or -1 for none), got " + metricsPort);
        }
    }

    public static ControllerOptions defaults(String identity) {
        return new ControllerOptions(JuneauConstants.SYSTEM_NAMESPACE, DEFAULT_LEASE_NAME, identity, DEFAULT_METRICS_PORT,
                DEFAULT_WORKERS, Leadership.Timing.defaults(), Clock.systemUTC(), false, ManagedServices.CLASSED);
    }

    public ControllerOptions withNamespace(String ns) {
        return new ControllerOptions(ns, leaseName, identity, metricsPort, workers, lease, clock, arpWithoutAgents, managed);
    }

    public ControllerOptions withLeaseName(String name) {
        return new ControllerOptions(namespace, name, identity, metricsPort, workers, lease, clock, arpWithoutAgents, managed);
    }

    public ControllerOptions withIdentity(String id) {
        return new ControllerOptions(namespace, leaseName, id, metricsPort, workers, lease, clock, arpWithoutAgents, managed);
    }

    public ControllerOptions withMetricsPort(int port) {
        return new ControllerOptions(namespace, leaseName, identity, port, workers, lease, clock, arpWithoutAgents, managed);
    }

    public ControllerOptions withWorkers(int n) {
        return new ControllerOptions(namespace, leaseName, identity, metricsPort, n, lease, clock, arpWithoutAgents, managed);
    }

    public ControllerOptions withLease(Leadership.Timing timing) {
        return new ControllerOptions(namespace, leaseName, identity, metricsPort, workers, timing, clock,
                arpWithoutAgents, managed);
    }

    /** Short Lease timing for tests and the demo: a standby takes over within {@code leaseDuration}. */
    public ControllerOptions withLease(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        return withLease(new Leadership.Timing(leaseDuration, renewDeadline, retryPeriod));
    }

    public ControllerOptions withArpWithoutAgents(boolean allowed) {
        return new ControllerOptions(namespace, leaseName, identity, metricsPort, workers, lease, clock, allowed, managed);
    }

    /** {@code --manage-unclassed}: LoadBalancer Services without a class are managed too. */
    public ControllerOptions withManageUnclassed(boolean unclassed) {
        return new ControllerOptions(namespace, leaseName, identity, metricsPort, workers, lease, clock, arpWithoutAgents,
                ManagedServices.of(unclassed));
    }

    public ControllerOptions withClock(Clock c) {
        return new ControllerOptions(namespace, leaseName, identity, metricsPort, workers, lease, c, arpWithoutAgents, managed);
    }
}
