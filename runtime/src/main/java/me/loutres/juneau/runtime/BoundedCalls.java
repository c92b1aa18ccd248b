package me.loutres.juneau.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.time.Duration;
import java.util.function.Function;

/**
 * Calls of a leader bounded by the time left in its {@link Term}: a request that has not been answered when the
 * term runs out is abandoned by the client, so no call of a term outlives it by more than the time to give up.
 */
public final class BoundedCalls {
    private BoundedCalls() {
    }

    /** Runs {@code call} on {@code client} with a request timeout of {@code left} (at least 1 ms). */
    public static <T> T within(KubernetesClient client, Duration left, Function<KubernetesClient, T> call) {
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, left.toMillis()));
        return client.adapt(NamespacedKubernetesClient.class)
                .withRequestConfig(new RequestConfigBuilder().withRequestTimeout(ms).build())
                .call(c -> call.apply(c));
    }

    /** Runs {@code call} within what is left of {@code term}, which must be active. */
    public static <T> T within(KubernetesClient client, Term term, Function<KubernetesClient, T> call) {
        term.ensureActive();
        Duration left = term.remaining();
        // a term without a deadline (per-node work) keeps the client's own timeout
        return left.compareTo(Duration.ofDays(1)) > 0 ? call.apply(client) : within(client, left, call);
    }
}
