package me.loutres.juneau.controller;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.reconcile.KubeWriter;
import me.loutres.juneau.runtime.Term;
import org.junit.jupiter.api.Test;

/**
 * A watch tick the API server refuses is not silent: each failure is counted by reason in
 * {@code juneau_watch_tick_failures} (and said at WARN once per distinct failure).
 */
class WatchTickTest {

    @Test
    void aRefusedTickIsCountedByReasonEachTime() {
        KubeWriter writer = mock(KubeWriter.class);
        doThrow(new KubernetesClientException("forbidden", 403, null)).when(writer)
                .tick(any(), any(), any(), any(), any(), any());
        ControllerMetrics metrics = new ControllerMetrics();
        Term term = new Term(1, () -> 0L, Duration.ofMinutes(1), 0);
        try (WatchTick tick = new WatchTick(writer, mock(ClusterCache.class), () -> term, Clock.systemUTC(),
                "juneau-system", "juneau-controller", "me", metrics)) {
            tick.request();
            eventually(() -> assertThat(failures(metrics, "HTTP 403")).isEqualTo(1.0));
            tick.request();
            eventually(() -> assertThat(failures(metrics, "HTTP 403")).isEqualTo(2.0));
        }
    }

    private static double failures(ControllerMetrics metrics, String reason) {
        var c = metrics.registry().find("juneau_watch_tick_failures").tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }
}
