package me.loutres.juneau.runtime;

import me.loutres.juneau.testing.Eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two runtimes campaign for one Lease on a mock API server (CRUD mode). */
class LeadershipMockTest {
    /** Long enough that a hand-over seen in these tests can only come from a release, not an expiry. */
    private static final Leadership.Timing SLOW_EXPIRY = new Leadership.Timing(Duration.ofSeconds(60),
            Duration.ofSeconds(40), Duration.ofMillis(100));

    private KubernetesMockServer server;
    private KubernetesClient clientA;
    private KubernetesClient clientB;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        clientA = server.createClient();
        clientB = server.createClient();
    }

    @AfterEach
    void stop() {
        clientA.close();
        clientB.close();
        server.destroy();
    }

    private static ControllerRuntime runtime(KubernetesClient c, String id, Reconciler<String> r,
            WorkQueue<?>[] queue) {
        ControllerRuntime rt = new ControllerRuntime(id, RuntimeMetrics.NONE);
        queue[0] = rt.register(Registration.of("k", "q", r));
        rt.startLeaderElection(c, "ns", "lease", id, SLOW_EXPIRY);
        return rt;
    }

    private String holder() {
        Lease l = clientA.leases().inNamespace("ns").withName("lease").get();
        return l == null ? null : l.getSpec().getHolderIdentity();
    }

    @Test
    void oneLeadsAndCloseHandsTheLeaseOverAtOnce() {
        WorkQueue<?>[] qa = new WorkQueue<?>[1];
        WorkQueue<?>[] qb = new WorkQueue<?>[1];
        ControllerRuntime a = runtime(clientA, "a", (k, t) -> Result.DONE, qa);
        Eventually.until("a leads", a::leading);
        ControllerRuntime b = runtime(clientB, "b", (k, t) -> Result.DONE, qb);
        try {
            assertThat(holder()).isEqualTo("a");
            assertThat(b.leading()).isFalse();
            a.close();
            Eventually.until("b leads", b::leading);
            assertThat(holder()).isEqualTo("b");
            assertThat(a.leading()).isFalse();
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void aLeaderWhoseWorkerDiesReleasesTheLeaseAndAStandbyTakesOver() {
        AtomicInteger onB = new AtomicInteger();
        WorkQueue<?>[] qa = new WorkQueue<?>[1];
        WorkQueue<?>[] qb = new WorkQueue<?>[1];
        ControllerRuntime a = runtime(clientA, "a", (k, t) -> {
            throw new OutOfMemoryError("simulated");
        }, qa);
        Eventually.until("a leads", a::leading);
        ControllerRuntime b = runtime(clientB, "b", (k, t) -> {
            onB.incrementAndGet();
            return Result.DONE;
        }, qb);
        try {
            @SuppressWarnings("unchecked")
            WorkQueue<String> queueA = (WorkQueue<String>) qa[0];
            queueA.add("x");
            Eventually.until("a failed", a::failed);
            Eventually.until("b leads", b::leading);
            assertThat(holder()).isEqualTo("b");
            assertThat(a.leading()).isFalse();
            @SuppressWarnings("unchecked")
            WorkQueue<String> queueB = (WorkQueue<String>) qb[0];
            queueB.add("x");
            Eventually.until("b reconciles", () -> onB.get() == 1);
        } finally {
            a.close();
            b.close();
        }
    }
}
