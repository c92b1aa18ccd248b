package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.BgpOptions;
import me.loutres.juneau.agent.plan.PlanObjects;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.testing.RbacCheck;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, both ways ({@link RbacCheck}): every API call the agent makes on all its paths (recorded by the
 * mock API server) is granted by {@code manifests/base/agent/rbac.yaml}, and the file grants nothing those calls do
 * not use.
 */
class RbacMockTest {
    static final Path RBAC = Path.of("..", "manifests", "base", "agent", "rbac.yaml");

    /** BIRD's run directory (no BIRD runs here: its path does not exist); JUnit deletes it after the test. */
    @org.junit.jupiter.api.io.TempDir
    Path birdDir;

    @Test
    void everyCallIsGrantedAndEveryGrantIsUsed() throws Exception {
        try (AgentCluster c = new AgentCluster()) {
            exerciseEveryPath(c, birdDir);
            RbacCheck.assertCallsMatchGrants("agent", RBAC, c.agentRequests().stream()
                    .map(r -> new String[] {r.method(), r.path()}).toList(), c.client());
        }
    }

    static void bgpObjects(AgentCluster c) {
        KubernetesClient k = c.client();
        k.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build()).create();
        k.resources(ExternalNetwork.class).resource(PlanObjects.bgpNetwork("public", null, null)).create();
        ServiceLoadBalancer slb = PlanObjects.slb("bgp-web", "public", "198.18.100.1", "node-a");
        slb.getMetadata().setUid(null);
        k.resources(ServiceLoadBalancer.class).inNamespace("default").resource(slb).create();
        BGPPeer peer = PlanObjects.withPassword(PlanObjects.peer("tor", "198.18.0.1", 65000, 65001), "tor-md5",
                "password");
        peer.getMetadata().setUid(null);
        k.resources(BGPPeer.class).resource(peer).create();
        k.secrets().inNamespace("juneau-system").resource(new SecretBuilder().withNewMetadata().withName("tor-md5")
                .endMetadata().addToStringData("password", "s3cret").build()).create();
    }

    /**
     * Gain (status, Event, Lease create and renew), a conflict, a move away, a pause and its fresh list, release; and
     * the BGP half: its watches, the peer's Secret, its BGPSessions listed, one created and its status written (BIRD is
     * missing on purpose: the session says so and the BGPPeer gets an Event), and deleted when its peer goes.
     */
    private static void exerciseEveryPath(AgentCluster c, Path birdDir) throws Exception {
        MacAddress mac = MacAddress.parse("02:00:00:00:00:0a");
        InterfaceInfo eth0 = new InterfaceInfo("eth0", 2, mac,
                List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);
        FakeWire wire = new FakeWire();
        // a Lease shorter than the renew interval makes the keeper see a "pause" and take the fresh-list path
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(1200), Duration.ofSeconds(1),
                        Duration.ofMillis(1200), Duration.ofSeconds(1)));
        c.advertise("web", "198.18.0.100", "node-a");
        bgpObjects(c);
        BgpOptions bgp = new BgpOptions(Path.of("/nonexistent/bird"), birdDir,
                "198.18.0.11", List.of());
        NodeAgent agent = NodeAgent.start(c.newAgentClient(), options, bgp, Clock.systemUTC(), wire,
                () -> List.of(eth0));
        try {
            // announced, not merely probed: a foreign claim during the probe before the first announcement is the
            // probe's verdict (AddressConflict, no announcement), a foreign claim after it is the conflict path
            eventually(() -> assertThat(c.get("web").getStatus()).isNotNull()
                    .satisfies(s -> assertThat(s.getAnnouncedAt()).isNotNull()));
            // injected again on each try: the short Lease below makes the agent pause and stop answering until its
            // fresh list, and a claim that arrives in that window is nobody's conflict
            eventually(() -> {
                wire.inject("eth0", ArpFrame.gratuitousRequest(MacAddress.parse("02:00:00:00:00:0b"),
                        Ipv4.parse("198.18.0.100")));
                assertThat(agent.metrics().conflictCount()).isGreaterThanOrEqualTo(1.0);
            });
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("PUT")
                    && r.path().contains("/leases/")));
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("GET")
                    && r.path().contains("arpadvertisements?") && !r.path().contains("watch=true")
                    && c.agentRequests().indexOf(r) > 2));
            eventually(() -> {
                BGPSession s = c.client().resources(BGPSession.class).withName("tor.node-a").get();
                assertThat(s).isNotNull();
                assertThat(s.getStatus()).isNotNull();
                assertThat(s.getStatus().getLastError()).contains("BIRD is not installed");
            });
            eventually(() -> assertThat(c.client().v1().events().inNamespace("default").list().getItems())
                    .anyMatch(e -> "BGPPeer".equals(e.getInvolvedObject().getKind())));
            // the peer goes: the agent deletes the session it listed or wrote (the mock runs no garbage collector)
            c.client().resources(BGPPeer.class).withName("tor").delete();
            eventually(() -> assertThat(c.client().resources(BGPSession.class).withName("tor.node-a").get())
                    .isNull());
            c.move("web", "node-b");
            eventually(() -> assertThat(agent.answering()).isEmpty());
            // the node's NodeNetwork (docs/api-reference.md, NodeNetwork): read, created, its status written
            try (var network = new me.loutres.juneau.agent.kube.NodeNetworkReporter(c.newAgentClient(), "node-a",
                    () -> new me.loutres.juneau.api.v1alpha1.NodeNetworkStatus(List.of(
                            new me.loutres.juneau.api.v1alpha1.NodeInterface("eth0", "02:00:00:00:00:0a", true,
                                    List.of("198.18.0.11/24"))), List.of())).start()) {
                eventually(() -> assertThat(c.client().resources(me.loutres.juneau.api.v1alpha1.NodeNetwork.class)
                        .withName("node-a").get().getStatus()).isNotNull());
            }
        } finally {
            agent.close();
        }
    }
}
