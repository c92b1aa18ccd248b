package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionSpec;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.controller.testing.ScenarioBase;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.plan.SessionLiveness;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions of a node whose agent Lease expired or was released (issue 41, item 2): the controller writes them
 * {@code Unknown} (through the webhook, which allows it that one write) and condition Announced stops naming the node
 * within 1 s of the Lease's end, from the release or from the instant an unrenewed Lease runs out.
 */
class DeadNodeSessionsMockTest extends ScenarioBase {
    private static final String NS = "juneau-system";
    private static final Duration WITHIN = Duration.ofSeconds(1);
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor();
    private volatile Instant lastRenewal;

    @AfterEach
    void stopRenewing() {
        renewer.shutdownNow();
    }

    @Test
    void aReleasedAndAnExpiredLeaseTakeTheNodeOutOfAnnouncedAndItsSessionsGoUnknown() throws Exception {
        cluster.ensureNode("dn-a");
        cluster.ensureNode("dn-b");
        cluster.pool("dn-pool", "bgp", "10.76.0.0/30");
        cluster.network("dn-net", "bgp", "dn-pool");
        cluster.service("dn", "web", "dn-net");
        cluster.endpoints("dn", "web", "dn-a", "dn-b");
        Instant first = Instant.now();
        lease("dn-a", "agent-dn-a", first, 3);
        lastRenewal = first;
        renewer.scheduleAtFixedRate(() -> {
            Instant now = Instant.now();
            lease("dn-a", "agent-dn-a", now, 3);
            lastRenewal = now.truncatedTo(ChronoUnit.MICROS);
        }, 1, 1, TimeUnit.SECONDS);
        lease("dn-b", "agent-dn-b", Instant.now(), 30);
        session("tor", "dn-a");
        session("tor", "dn-b");
        eventually(() -> assertThat(announced()).endsWith("is announced by dn-a (tor), dn-b (tor)"));

        // node-b's agent stops: its Lease released
        Instant released = Instant.now();
        lease("dn-b", "", released, 30);
        Eventually.until("Announced no longer names dn-b", () -> announced().contains("not by dn-b"));
        Duration took = Duration.between(released, Instant.now());
        assertThat(announced()).contains("is announced by dn-a (tor); not by dn-b: no Established session (tor:"
                + " Unknown, its agent released Lease juneau-agent-dn-b)");
        assertThat(took).as("from the release to Announced").isLessThanOrEqualTo(WITHIN);
        System.out.println("DeadNodeSessionsMockTest: released Lease -> out of Announced in " + took.toMillis() + " ms");
        eventually(() -> {
            BGPSessionStatus s = sessionStatus("tor.dn-b");
            assertThat(s.getState()).isEqualTo(SessionLiveness.UNKNOWN);
            assertThat(s.getLastError()).startsWith("node dn-b is dead: its agent released Lease juneau-agent-dn-b");
        });
        assertThat(sessionStatus("tor.dn-a").getState()).as("a live node's session is its agent's").isEqualTo(
                "Established");

        // node-a's agent freezes: its Lease runs out without an event
        renewer.shutdownNow();
        renewer.awaitTermination(5, TimeUnit.SECONDS);
        Instant expires = lastRenewal.plusSeconds(3);
        Eventually.until("Announced no longer names dn-a", () -> announced().startsWith("dn-a: no Established"));
        Duration late = Duration.between(expires, Instant.now());
        assertThat(late).as("from the Lease's end to Announced").isLessThanOrEqualTo(WITHIN);
        System.out.println("DeadNodeSessionsMockTest: expired Lease -> out of Announced in " + late.toMillis() + " ms");
        assertThat(condition(status("dn", "web"), JuneauConstants.CONDITION_ANNOUNCED).getStatus()).isEqualTo("False");
        eventually(() -> assertThat(sessionStatus("tor.dn-a").getState()).isEqualTo(SessionLiveness.UNKNOWN));
    }

    /** Issue 41, item 3: the agent's Lease says its BGPSession writes are refused; Announced says so for the node. */
    @Test
    void aNodeWhoseAgentsSessionWritesAreRefusedIsNamedSoInAnnounced() {
        cluster.ensureNode("rw-a");
        cluster.pool("rw-pool", "bgp", "10.77.0.0/30");
        cluster.network("rw-net", "bgp", "rw-pool");
        cluster.service("rw", "web", "rw-net");
        cluster.endpoints("rw", "web", "rw-a");
        lease("rw-a", "agent-rw-a", Instant.now(), 30);
        eventually(() -> assertThat(announced("rw")).startsWith("rw-a: no BGPSession"));

        var l = cluster.client().leases().inNamespace(NS).withName(NodeLiveness.LEASE_PREFIX + "rw-a").get();
        l.getMetadata().setAnnotations(Map.of(me.loutres.juneau.plan.RefusedWrites.ANNOTATION,
                "BGPSession: Forbidden: bgpsessions.juneau.loutres.me is forbidden"));
        cluster.client().leases().inNamespace(NS).resource(l).update();
        eventually(() -> assertThat(announced("rw")).startsWith("rw-a: its juneau-agent runs but the API server refuses"
                + " its BGPSession writes (Forbidden: bgpsessions.juneau.loutres.me is forbidden)"));
    }

    private String announced() {
        return announced("dn");
    }

    private String announced(String ns) {
        var s = status(ns, "web");
        return s == null || s.getConditions() == null ? ""
                : s.getConditions().stream().filter(c -> JuneauConstants.CONDITION_ANNOUNCED.equals(c.getType()))
                        .map(c -> c.getMessage() == null ? "" : c.getMessage()).findFirst().orElse("");
    }

    private void lease(String node, String holder, Instant renewed, int seconds) {
        cluster.client().leases().inNamespace(NS).resource(new LeaseBuilder().withNewMetadata().withNamespace(NS)
                .withName(NodeLiveness.LEASE_PREFIX + node).endMetadata().withNewSpec().withHolderIdentity(holder)
                .withRenewTime(renewed.truncatedTo(ChronoUnit.MICROS).atZone(ZoneOffset.UTC))
                .withLeaseDurationSeconds(seconds).endSpec().build()).createOr(op -> op.update());
    }

    private BGPSessionStatus sessionStatus(String name) {
        BGPSession s = cluster.client().resources(BGPSession.class).withName(name).get();
        return s == null ? null : s.getStatus();
    }

    /** Established, written as the node agent writes it. */
    private void session(String peer, String node) {
        String name = JuneauConstants.bgpSessionName(peer, node);
        try (var agent = cluster.newAgentClient(node)) {
            BGPSession s = new BGPSession();
            s.getMetadata().setName(name);
            s.getMetadata().setLabels(Map.of(JuneauConstants.LABEL_PEER, peer, JuneauConstants.LABEL_NODE, node));
            BGPSessionSpec spec = new BGPSessionSpec();
            spec.setPeer(peer);
            spec.setNodeName(node);
            s.setSpec(spec);
            BGPSession created = agent.resource(s).create();
            BGPSessionStatus st = new BGPSessionStatus();
            st.setState("Established");
            st.setRoutesAdvertised(1L);
            created.setStatus(st);
            agent.resource(created).updateStatus();
        }
    }
}
