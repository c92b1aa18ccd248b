package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 3 at the controller's level: the real reconcile loop of the leader dies (its worker thread is
 * thrown an Error in the middle of a write, as an OutOfMemoryError or a library bug would), and then the leader
 * gives up its Lease, fails {@code /readyz} and {@code /healthz} (so Kubernetes restarts it), and the standby takes
 * over and does the work. The Lease lasts a minute: only its release explains a quick takeover.
 */
class DeadLoopMockTest {
    private static final Duration LONG_LEASE = Duration.ofSeconds(60);

    /** Throws an Error on the calling thread (a worker of the controller) at its first ServiceLoadBalancer create. */
    static final class DyingWrite implements Interceptor {
        final AtomicBoolean armed = new AtomicBoolean();
        final AtomicInteger thrown = new AtomicInteger();

        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if ("POST".equals(request.method()) && request.uri().getPath().endsWith("/serviceloadbalancers")
                    && armed.getAndSet(false)) {
                thrown.incrementAndGet();
                throw new InternalError("simulated: the worker dies in the middle of a write");
            }
        }
    }

    @Test
    void aLeaderWhoseReconcileLoopDiesGivesUpTheLeaseFailsItsProbesAndTheStandbyTakesOver() {
        DyingWrite dying = new DyingWrite();
        try (MockCluster c = new MockCluster()) {
            c.pool("dead-pool", "bgp", "10.75.0.0/30");
            c.network("dead-net", "bgp", "dead-pool");
            JuneauController leader = c.startController(options("leader"), dying);
            Eventually.until("the first replica leads", leader::isLeader);
            JuneauController standby = c.startController(options("standby"));
            Eventually.until("the standby is ready", standby::isReady);
            assertThat(probe(leader, "/readyz")).isEqualTo(200);
            assertThat(probe(leader, "/healthz")).isEqualTo(200);
            assertThat(standby.isLeader()).isFalse();

            dying.armed.set(true);
            c.service("dead", "web", "dead-net");

            eventually(() -> {
                assertThat(dying.thrown).hasValue(1);
                assertThat(leader.isLeader()).isFalse();
                assertThat(probe(leader, "/readyz")).as("readiness of the dead leader").isEqualTo(503);
                assertThat(probe(leader, "/healthz")).as("liveness: restart it").isEqualTo(503);
            });
            // well inside the minute the Lease would last without its release
            eventually(Duration.ofSeconds(20), () -> assertThat(standby.isLeader()).isTrue());
            eventually(() -> assertThat(c.slb("dead", "web").getStatus().getVip()).isEqualTo("10.75.0.1"));
            assertThat(leader.isLeader()).as("the dead leader stays out").isFalse();
            assertThat(probe(standby, "/readyz")).isEqualTo(200);
        }
    }

    private static ControllerOptions options(String identity) {
        return MockCluster.fastOptions(identity).withMetricsPort(0)
                .withLease(LONG_LEASE, Duration.ofSeconds(40), Duration.ofMillis(200));
    }

    private static int probe(JuneauController c, String path) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            return http.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.metricsPort()
                    + path)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
