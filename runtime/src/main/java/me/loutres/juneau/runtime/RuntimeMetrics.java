package me.loutres.juneau.runtime;

import java.time.Duration;

/** What the runtime reports; {@link MicrometerRuntimeMetrics} puts it in a Prometheus registry. */
public interface RuntimeMetrics {
    /** One reconcile of {@code kind} ended with {@code outcome} ({@code ok} or a failure cause). */
    void reconciled(String kind, String outcome, Duration took);

    /** A queue to watch: its depth (keys ready) and its unfinished work (ready, running or waiting a delay). */
    void queue(String name, WorkQueue<?> queue);

    RuntimeMetrics NONE = new RuntimeMetrics() {
        @Override
        public void reconciled(String kind, String outcome, Duration took) {
        }

        @Override
        public void queue(String name, WorkQueue<?> queue) {
        }
    };
}
