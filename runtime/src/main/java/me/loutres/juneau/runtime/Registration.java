package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * One reconciler on the runtime: {@code kind} tags its metrics, {@code queue} names its work queue,
 * {@code workers} threads take keys from it, and a failed key is retried after {@code backoffBase},
 * 2×, 4× ... up to {@code backoffMax}.
 */
public record Registration<K>(String kind, String queue, Reconciler<K> reconciler, int workers, Duration backoffBase,
        Duration backoffMax) {
    public Registration {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(queue);
        Objects.requireNonNull(reconciler);
        if (workers < 1) {
            throw new IllegalArgumentException("a registration needs at least one worker, got " + workers);
        }
    }

    /** One worker, retries from 20 ms doubling up to 60 s. */
    public static <K> Registration<K> of(String kind, String queue, Reconciler<K> reconciler) {
        return new Registration<>(kind, queue, reconciler, 1, Duration.ofMillis(20), Duration.ofSeconds(60));
    }

    public Registration<K> withWorkers(int n) {
        return new Registration<>(kind, queue, reconciler, n, backoffBase, backoffMax);
    }

    public Registration<K> withBackoff(Duration base, Duration max) {
        return new Registration<>(kind, queue, reconciler, workers, base, max);
    }
}
