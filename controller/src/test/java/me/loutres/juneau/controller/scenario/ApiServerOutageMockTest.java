package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.testing.Eventually;
import me.loutres.juneau.controller.testing.MockCluster;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 14 item 2 for the controller: started while the API server is down it retries (alive, not ready), becomes
 * ready and leads once the server is up, and recovers when the server goes away mid-run and comes back (every
 * connection and watch cut, the objects kept, as across a kube-apiserver restart). Each outage is one log line, and one more when it ends.
 */
class ApiServerOutageMockTest {

    @Test
    void startsWithTheApiServerDownReachesReadyOnceItIsUpAndRecoversFromAnOutageMidRun() throws Exception {
        int port = freePort();
        Logger connLog = (Logger) LoggerFactory.getLogger("me.loutres.juneau.runtime.watch.ApiConnection");
        Level before = connLog.getLevel();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        connLog.addAppender(lines);
        connLog.setLevel(Level.INFO);
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:" + port)
                .withCaCertData(localApiServerCa()).withOauthToken(Identities.CONTROLLER_TOKEN)
                .withOnlyHttpWatches(true).withNamespace("default").withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(500).withWatchReconnectInterval(200).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            JuneauController ctl = JuneauController.start(client, MockCluster.fastOptions("outage"));
            try {
                // down from the start: retrying, so alive; not ready; nobody leads
                Eventually.until("the outage is noticed", () -> count(lines, "cannot reach the API server") == 1);
                Thread.sleep(1_500);
                assertThat(ctl.isHealthy()).isTrue();
                assertThat(ctl.isReady()).isFalse();
                assertThat(ctl.isLeader()).isFalse();
                assertThat(count(lines, "cannot reach the API server")).as("one line per outage, not per retry")
                        .isEqualTo(1);

                try (MockCluster cluster = MockCluster.onPort(port)) {
                    Eventually.until("ready once the API server is up", ctl::isReady);
                    Eventually.until("leads", ctl::isLeader);
                    cluster.pool("out-pool", "bgp", "10.92.0.0/29");
                    cluster.network("out-net", "bgp", "out-pool");
                    cluster.service("out", "web", "out-net");
                    eventually(() -> assertThat(cluster.slb("out", "web").getStatus().getVip()).isEqualTo("10.92.0.1"));
                    Eventually.until("the recovery is said once", () -> count(lines, "the API server answers again") == 1);

                    // gone mid-run, as when kube-apiserver restarts: every connection and watch breaks; the
                    // controller keeps retrying and stays alive; the objects stay, as etcd keeps them
                    try (AutoCloseable down = cluster.apiServerDown()) {
                        Eventually.until("the second outage is noticed",
                                () -> count(lines, "cannot reach the API server") == 2);
                        assertThat(ctl.isHealthy()).isTrue();
                    }

                    cluster.pool("back-pool", "bgp", "10.93.0.0/29");
                    cluster.network("back-net", "bgp", "back-pool");
                    cluster.service("back", "web", "back-net");
                    eventually(Duration.ofSeconds(60), () -> {
                        assertThat(cluster.slb("back", "web").getStatus().getVip()).isEqualTo("10.93.0.1");
                        assertThat(cluster.slb("back", "web").getStatus().getPhase())
                                .isEqualTo(JuneauConstants.PHASE_ALLOCATED);
                    });
                    assertThat(cluster.slb("out", "web").getStatus().getVip()).as("kept across the outage")
                            .isEqualTo("10.92.0.1");
                    assertThat(ctl.isHealthy()).isTrue();
                    assertThat(ctl.isReady()).isTrue();
                    Eventually.until("the second recovery is said once", () -> count(lines, "the API server answers again") == 2);
                }
            } finally {
                ctl.close();
            }
        } finally {
            connLog.detachAppender(lines);
            connLog.setLevel(before);
        }
        List<ILoggingEvent> all = List.copyOf(lines.list);
        assertThat(all).as("no stack trace for an expected outage").allSatisfy(e ->
                assertThat(e.getThrowableProxy()).isNull());
    }

    private static long count(ListAppender<ILoggingEvent> lines, String text) {
        return List.copyOf(lines.list).stream().filter(e -> e.getFormattedMessage().contains(text)).count();
    }

    /**
     * The CA of the local API servers this JVM starts (one per process, as a restarted kube-apiserver keeps its
     * serving certificate), read from a server started and stopped for that: the controller is configured before
     * any server is up, as with a kubeconfig.
     */
    private static String localApiServerCa() {
        try (LocalApiServer probe = LocalApiServer.start(0)) {
            return probe.caData();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
