package me.loutres.juneau.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The runtime's series: {@code juneau_reconcile_duration{kind}}, {@code juneau_reconcile_total{kind,outcome}},
 * {@code juneau_reconcile_errors_total{kind,cause}}, {@code juneau_workqueue_depth{queue}} and
 * {@code juneau_workqueue_unfinished{queue}}.
 */
public final class MicrometerRuntimeMetrics implements RuntimeMetrics {
    private final MeterRegistry registry;

    public MicrometerRuntimeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void reconciled(String kind, String outcome, Duration took) {
        Timer.builder("juneau_reconcile_duration").description("Time spent in one reconcile")
                .tag("kind", kind).publishPercentileHistogram(false).register(registry).record(took);
        Counter.builder("juneau_reconcile").description("Reconciles run")
                .tag("kind", kind).tag("outcome", outcome).register(registry).increment();
        if (!"ok".equals(outcome)) {
            Counter.builder("juneau_reconcile_errors").description("Reconciles that failed and were retried with backoff")
                    .tag("kind", kind).tag("cause", outcome).register(registry).increment();
        }
    }

    @Override
    public void queue(String name, WorkQueue<?> queue) {
        Gauge.builder("juneau_workqueue_depth", queue::depth).strongReference(true)
                .description("Keys waiting in the work queue").tag("queue", name).register(registry);
        Gauge.builder("juneau_workqueue_unfinished", queue::pending).strongReference(true)
                .description("Keys waiting, being reconciled or waiting for a delayed retry; 0 = nothing left to do")
                .tag("queue", name).register(registry);
    }
}
