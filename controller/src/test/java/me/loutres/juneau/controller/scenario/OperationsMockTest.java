package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.MockCluster;
import org.junit.jupiter.api.Test;

/** docs/operations.md: /healthz, /readyz, /metrics; and 409 conflicts from the API server are survived. */
class OperationsMockTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void conflictsAreRetriedUntilEverythingConverges() {
        try (MockCluster c = new MockCluster()) {
            c.pool("cf-pool", "arp", "10.80.0.1-10.80.0.50");
            c.network("cf-net", "arp", "cf-pool");
            for (int i = 0; i < 20; i++) {
                c.service("cf", "svc-" + i, "cf-net");
                c.endpoints("cf", "svc-" + i, "node-" + (i % 3));
            }
            // the next 40 writes of the controller to its objects and statuses are refused as stale
            c.dispatcher().conflictNext(40, r -> MockCluster.CONTROLLER_AGENT.equals(r.userAgent())
                    && !r.path().contains("/leases") && !r.path().contains("/events"));
            JuneauController ctl = c.startController("conflicted");

            eventually(() -> {
                Map<String, String> phases = c.phases();
                assertThat(phases).hasSize(20);
                assertThat(phases.values()).containsOnly(JuneauConstants.PHASE_READY);
                assertThat(c.arps()).hasSize(20);
            });
            assertThat(c.dispatcher().conflictsSent()).isEqualTo(40);
            List<String> vips = c.slbs().stream().map(s -> s.getStatus().getVip()).toList();
            assertThat(new HashSet<>(vips)).hasSize(20);
            assertThat(ctl.scrapeMetrics()).containsPattern("juneau_reconcile_errors_total\\{cause=\"conflict\",kind=\"service\"\\} [1-9]");
        }
    }

    @Test
    void healthReadinessAndMetricsAreServedAndAStandbyIsReadyToo() throws Exception {
        try (MockCluster c = new MockCluster()) {
            c.pool("ops-pool", "arp", "10.81.0.1-10.81.0.1");
            c.network("ops-net", "arp", "ops-pool");
            c.service("ops", "web", "ops-net");
            c.endpoints("ops", "web", "node-1");
            c.service("ops", "late", "ops-net");
            c.endpoints("ops", "late", "node-2");
            JuneauController leader = c.startController(MockCluster.fastOptions("ops-leader").withMetricsPort(0));
            Eventually.until("leads", leader::isLeader);
            JuneauController standby = c.startController(MockCluster.fastOptions("ops-standby").withMetricsPort(0));

            eventually(() -> assertThat(get(leader, "/readyz").statusCode()).isEqualTo(200));
            eventually(() -> assertThat(get(standby, "/readyz").statusCode()).isEqualTo(200));
            assertThat(standby.isLeader()).isFalse();
            HttpResponse<String> health = get(leader, "/healthz");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("ok\n");

            eventually(() -> {
                List<ServiceLoadBalancer> slbs = c.slbs();
                assertThat(slbs).hasSize(2);
                assertThat(slbs).extracting(s -> s.getStatus().getPhase())
                        .containsExactlyInAnyOrder(JuneauConstants.PHASE_READY, JuneauConstants.PHASE_PENDING);
                assertThat(c.getPool("ops-pool").getStatus()).isNotNull();
            });
            eventually(() -> {
                HttpResponse<String> m = get(leader, "/metrics");
                assertThat(m.statusCode()).isEqualTo(200);
                assertThat(m.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
                assertThat(m.body())
                        .contains("juneau_reconcile_total{kind=\"service\",outcome=\"ok\"}")
                        .contains("juneau_reconcile_duration_seconds_count{kind=\"service\"}")
                        .contains("juneau_workqueue_depth{queue=\"services\"}")
                        .contains("juneau_pool_addresses_usable{pool=\"ops-pool\"} 1.0")
                        .contains("juneau_pool_addresses_allocated{pool=\"ops-pool\"} 1.0")
                        .contains("juneau_allocations_total 1.0")
                        .contains("juneau_allocation_failures_total{reason=\"PoolExhausted\"} 1.0")
                        .contains("juneau_arp_node_changes_total 1.0");
            });

            HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(leader, "/metrics"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(get(leader, "/nope").statusCode()).isEqualTo(404);

            // failover: the leader stops (releasing the Lease), the standby takes over and serves the counts
            leader.close();
            Eventually.until("standby leads", standby::isLeader);
            eventually(() -> assertThat(Objects.requireNonNull(get(standby, "/metrics").body()))
                    .contains("juneau_pool_addresses_allocated{pool=\"ops-pool\"} 1.0"));
        }
    }

    private HttpResponse<String> get(JuneauController c, String path) {
        try {
            return http.send(HttpRequest.newBuilder(uri(c, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static URI uri(JuneauController c, String path) {
        return URI.create("http://127.0.0.1:" + c.metricsPort() + path);
    }
}
