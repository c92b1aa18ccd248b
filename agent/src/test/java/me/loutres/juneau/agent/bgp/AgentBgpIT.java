package me.loutres.juneau.agent.bgp;

import static me.loutres.juneau.agent.bgp.BirdDaemonIT.within;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.BgpOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.plan.PlanObjects;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.testing.Executables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The real node agent (in this JVM, against the local API server) with its BIRD in a node namespace, peering with a
 * router BIRD in another namespace over two addresses (two BGPPeers). Asserted where it matters: the router's routes
 * and its sessions' start times, and the BGPSessions the agent writes. The ServiceLoadBalancers' status is written
 * here as the controller would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentBgpIT {
    static final String NODE = "node-a";
    static final String VIP = "198.18.100.1";
    static final String ROUTER_B_IP = "198.18.0.3";

    BgpLab lab;
    LocalApiServer server;
    KubernetesClient admin;
    KubernetesClient agentClient;
    NodeAgent agent;

    /**
     * The router peers with the node twice: protocol node (as tor-a, 198.18.0.1) and node_b (tor-b, .3). BIRD locks a
     * session by the neighbour's address and port, so node_b names another port for the node and only listens.
     */
    static String routerConfig() {
        return BgpLab.routerConfig(9, false) + "protocol bgp node_b {\n"
                + "  local " + ROUTER_B_IP + " as 65000;\n"
                + "  neighbor " + BgpLab.NODE_IP + " port 1179 as 65001;\n"
                + "  passive;\n"
                + "  hold time 9;\n"
                + BgpLab.ROUTER_TIMERS
                + "  ipv4 { import all; export none; };\n"
                + "}\n";
    }

    @BeforeAll
    void start() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "AgentBgpIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        lab = BgpLab.createWithRouterAddresses(routerConfig(), List.of(ROUTER_B_IP));
        server = LocalApiServer.start(0);
        admin = server.adminClient();
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE)
                .withLabels(Map.of("rack", "r1")).endMetadata().withNewStatus().addNewAddress()
                .withType("InternalIP").withAddress(BgpLab.NODE_IP).endAddress().endStatus().build()).create();
        admin.resources(ExternalNetwork.class).resource(PlanObjects.bgpNetwork("public",
                PlanObjects.bgp(null, List.of("65000:100"), null, null), null)).create();
        admin.resources(BGPPeer.class).resource(peer("tor-a", BgpLab.ROUTER_IP)).create();
        admin.resources(BGPPeer.class).resource(peer("tor-b", ROUTER_B_IP)).create();
        BGPPeer elsewhere = peer("tor-c", "198.18.0.9");
        PlanObjects.withSelector(elsewhere, Map.of("rack", "r9"));
        admin.resources(BGPPeer.class).resource(elsewhere).create();
        slb("web", VIP, List.of(NODE));
        agentClient = server.client(server.agentToken(NODE));
        agent = NodeAgent.start(agentClient, AgentOptions.defaults(NODE).withMetrics("127.0.0.1", 0),
                new BgpOptions(BgpLab.BIRD, lab.nodeBirdDir(), null, lab.nodePrefix()), Clock.systemUTC(),
                new FakeWire(), List::of);
    }

    @AfterAll
    void stop() {
        if (agent != null) {
            agent.close();
        }
        if (agentClient != null) {
            agentClient.close();
        }
        if (server != null) {
            server.close();
        }
        if (lab != null) {
            lab.close();
            assertThat(lab.namespaces()).isEmpty();
        }
    }

    static BGPPeer peer(String name, String address) {
        BGPPeer p = PlanObjects.peer(name, address, 65000, 65001);
        p.getMetadata().setUid(null);
        p.getMetadata().setGeneration(null);
        p.getSpec().setHoldTime("9s");
        return p;
    }

    void slb(String name, String vip, List<String> nodes) {
        ServiceLoadBalancer s = PlanObjects.slb(name, "public", vip);
        s.getMetadata().setUid(null);
        s.getMetadata().setGeneration(null);
        var status = s.getStatus();
        s.setStatus(null);
        ServiceLoadBalancer created = admin.resources(ServiceLoadBalancer.class).inNamespace("default").resource(s)
                .create();
        status.setAdvertisingNodes(nodes);
        created.setStatus(status);
        admin.resources(ServiceLoadBalancer.class).inNamespace("default").resource(created).updateStatus();
    }

    void advertisingNodes(String name, List<String> nodes) {
        ServiceLoadBalancer s = admin.resources(ServiceLoadBalancer.class).inNamespace("default").withName(name).get();
        s.getStatus().setAdvertisingNodes(nodes);
        admin.resources(ServiceLoadBalancer.class).inNamespace("default").resource(s).updateStatus();
    }

    String routerSession(String protocol) throws Exception {
        return BgpLab.birdc(lab.routerSocket(), "show", "protocols", protocol).lines()
                .filter(l -> l.startsWith(protocol + " ")).findFirst().orElse("");
    }

    /**
     * The same session: Established and started at the same time. BIRD prints a start time computed from its
     * monotonic clock, which moves by a millisecond from one print to the next; a reset moves it by seconds.
     */
    static void assertSameSession(String now, String before) {
        assertThat(now).contains("Established");
        assertThat(Math.abs(BgpLab.sinceMillis(now) - BgpLab.sinceMillis(before))).as("%s against %s", now, before)
                .isLessThanOrEqualTo(5);
    }

    BGPSession session(String peer) {
        return admin.resources(BGPSession.class).withName(peer + "." + NODE).get();
    }

    @Test
    @Order(1)
    void theRouterLearnsTheVipFromBothPeersAndTheSessionsSaySo() throws Exception {
        within(Duration.ofSeconds(30), () -> {
            String route = lab.routerRoute(VIP + "/32");
            assertThat(route).contains("BGP.community: (65000,100)");
            assertThat(route).contains("[node ").contains("[node_b ");
        });
        within(Duration.ofSeconds(10), () -> {
            for (String peer : List.of("tor-a", "tor-b")) {
                BGPSession s = session(peer);
                assertThat(s).as(peer).isNotNull();
                assertThat(s.getMetadata().getLabels()).containsEntry("juneau.loutres.me/peer", peer)
                        .containsEntry("juneau.loutres.me/node", NODE);
                assertThat(s.getMetadata().getOwnerReferences()).singleElement()
                        .satisfies(o -> assertThat(o.getName()).isEqualTo(peer));
                assertThat(s.getStatus().getState()).isEqualTo("Established");
                assertThat(s.getStatus().getRoutesAdvertised()).isEqualTo(1L);
                assertThat(s.getStatus().getConditions()).singleElement()
                        .satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
            }
        });
        assertThat(agent.metrics().scrape()).contains("juneau_agent_bgp_session_up{peer=\"tor-a\"} 1.0")
                .contains("juneau_agent_bgp_routes_advertised{peer=\"tor-b\"} 1.0");
    }

    @Test
    @Order(2)
    void aPeerWhoseSelectorsExcludeTheNodeGetsNoSession() {
        assertThat(session("tor-c")).isNull();
    }

    @Test
    @Order(3)
    void twentyOtherServicesComeAndGoWithoutResettingASession() throws Exception {
        String a = routerSession("node");
        String b = routerSession("node_b");
        for (int i = 10; i < 30; i++) {
            slb("svc-" + i, "198.18.100." + i, List.of(NODE));
        }
        within(Duration.ofSeconds(20), () -> assertThat(lab.routerKernelRoute("198.18.100.29")).contains("via"));
        for (int i = 10; i < 30; i++) {
            admin.resources(ServiceLoadBalancer.class).inNamespace("default").withName("svc-" + i).delete();
        }
        within(Duration.ofSeconds(20), () -> assertThat(lab.routerKernelRoute("198.18.100.29")).doesNotContain("via"));
        assertThat(lab.routerKernelRoute(VIP)).contains("via " + BgpLab.NODE_IP);
        assertSameSession(routerSession("node"), a);
        assertSameSession(routerSession("node_b"), b);
    }

    @Test
    @Order(4)
    void theRouteGoesWhenTheNodeStopsAdvertisingAndComesBack() throws Exception {
        long t0 = System.nanoTime();
        advertisingNodes("web", List.of("node-b"));
        within(Duration.ofSeconds(5), () -> assertThat(lab.routerKernelRoute(VIP)).doesNotContain("via"));
        long gone = System.nanoTime() - t0;
        t0 = System.nanoTime();
        advertisingNodes("web", List.of(NODE, "node-b"));
        within(Duration.ofSeconds(5), () -> assertThat(lab.routerKernelRoute(VIP)).contains("via"));
        long back = System.nanoTime() - t0;
        System.out.printf("AgentBgpIT: route withdrawn at the router %.0f ms after the status write, back after"
                + " %.0f ms%n", gone / 1e6, back / 1e6);
    }

    @Test
    @Order(5)
    void changingOnePeersHoldTimeResetsOnlyThatSession() throws Exception {
        String a = routerSession("node");
        String b = routerSession("node_b");
        BGPPeer tb = admin.resources(BGPPeer.class).withName("tor-b").get();
        tb.getSpec().setHoldTime("12s");
        admin.resources(BGPPeer.class).resource(tb).update();
        within(Duration.ofSeconds(20), () -> {
            String now = routerSession("node_b");
            assertThat(now).contains("Established");
            assertThat(BgpLab.sinceMillis(now) - BgpLab.sinceMillis(b)).as("tor-b's session restarted").isPositive()
                    .isGreaterThan(50);
        });
        assertSameSession(routerSession("node"), a);
    }

    @Test
    @Order(6)
    void birdKilledAloneIsBackAndAnnouncesAgain() throws Exception {
        long pid = agent.birdPid();
        BgpLab.run("kill", "-9", Long.toString(pid));
        within(Duration.ofSeconds(5), () -> assertThat(agent.birdPid()).isNotIn(-1L, pid));
        within(Duration.ofSeconds(30), () -> assertThat(lab.routerKernelRoute(VIP)).contains("via"));
        assertThat(agent.metrics().bgpDaemonRestarts()).isEqualTo(1.0);
    }

    @Test
    @Order(7)
    void closingWithdrawsEveryRouteAndLeavesNoBird() throws Exception {
        long pid = agent.birdPid();
        agent.close();
        agent = null;
        assertThat(ProcessHandle.of(pid)).isEmpty();
        within(Duration.ofSeconds(5), () -> assertThat(lab.routerKernelRoute(VIP)).doesNotContain("via"));
    }
}
