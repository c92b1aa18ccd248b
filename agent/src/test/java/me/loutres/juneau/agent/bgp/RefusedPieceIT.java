package me.loutres.juneau.agent.bgp;

import me.loutres.juneau.bgp.Community;
import static me.loutres.juneau.agent.bgp.BirdDaemonIT.within;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.NodePlan;
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
 * Two nodes, each with its own BIRD driven by a {@link BgpDriver} as the agent drives it, peering with one router
 * (docs/bgp.md, "Troubleshooting"). Each node's configuration holds two pieces the real BIRD refuses: a peer (multihop
 * with BFD and no source address) and a network (a community value out of range). Admission and the agent's planner
 * refuse both today, so the plan is built here directly: it stands for whatever BIRD still refuses after them (another
 * BIRD version, a Secret changed later). Asserted where it matters: the router's routes from both nodes, the reports
 * the BGPSessions are written from, the refused-piece metric.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RefusedPieceIT {
    static final String EXISTING = "198.18.100.1";
    static final String BAD_PEER = "multihop-bfd";
    static final String BAD_NETWORK = "broken";

    BgpLab lab;
    final List<String> vips = new ArrayList<>(List.of(EXISTING));
    Node a;
    Node b;
    final List<String> missing = Collections.synchronizedList(new ArrayList<>());
    final AtomicBoolean watching = new AtomicBoolean();
    Thread watcher;

    /** One node: its driver, metrics and the address its session with the router uses. */
    final class Node {
        final String ip;
        final String routerIp;
        final BgpDriver.Settings settings;
        final AgentMetrics metrics = new AgentMetrics();
        BgpDriver driver;

        Node(String ip, String routerIp, String dir, List<String> prefix) {
            this.ip = ip;
            this.routerIp = routerIp;
            this.settings = new BgpDriver.Settings(BgpLab.BIRD, lab.dir.resolve(dir), prefix);
            this.driver = new BgpDriver(settings, metrics, Clock.systemUTC());
        }

        NodePlan plan() {
            Neighbor tor = new Neighbor("tor", routerIp, 65000, 65001, 179, 9, 3, false, null, null, null,
                    List.of("public", BAD_NETWORK));
            Neighbor bad = new Neighbor(BAD_PEER, "198.18.7.1", 65000, 65001, 179, 9, 3, true, null, null,
                    new BfdTiming(300, 300, 3, false), List.of("public"));
            BirdConfig bird = new BirdConfig(ip, List.of(tor, bad), List.of(
                    BirdConfigs.routes("public", List.of(), null, vips.stream().map(v -> v + "/32")
                            .toArray(String[]::new)),
                    BirdConfigs.routes(BAD_NETWORK, List.of(new Community.Standard(65000, 70000)), null,
                            "198.18.101.1/32")));
            return new NodePlan(new TreeMap<>(), new TreeMap<>(), bird, List.of(
                    new NodePlan.SessionPlan("tor", "uid-tor", 1, routerIp, false, null),
                    new NodePlan.SessionPlan(BAD_PEER, "uid-bad", 1, "198.18.7.1", true, null)), null, List.of());
        }

        Map<String, SessionReport> apply() {
            Map<String, SessionReport> out = new TreeMap<>();
            driver.apply(plan()).forEach(r -> out.put(r.peer(), r));
            return out;
        }
    }

    @BeforeAll
    void start() throws Exception {
        String reason = BgpLab.unavailableReason();
        Assumptions.assumeTrue(reason == null, "RefusedPieceIT needs network namespaces: " + reason);
        Executables.require(BgpLab.BIRD, "to run BGP against a real router", "run .ci/install-bird (Debian's bird2)");
        lab = BgpLab.createTwoNodes(BgpLab.routerConfigTwoNodes(9));
        a = new Node(BgpLab.NODE_IP, BgpLab.ROUTER_IP, "bird-a", lab.nodePrefix());
        b = new Node(BgpLab.NODE_IP_2, BgpLab.ROUTER_IP_2, "bird-b", lab.node2Prefix());
    }

    @AfterAll
    void stop() throws InterruptedException {
        watching.set(false);
        if (watcher != null) {
            watcher.join(5000);
        }
        for (Node n : new Node[] {a, b}) {
            if (n != null) {
                n.driver.close();
            }
        }
        if (lab != null) {
            lab.close();
            assertThat(lab.namespaces()).isEmpty();
        }
    }

    /** Whether the router has {@code vip} from both nodes (its sessions are named node and node2). */
    boolean fromBoth(String vip) throws Exception {
        String route;
        try {
            route = lab.routerRoute(vip + "/32");
        } catch (java.io.IOException e) {
            return false; // birdc fails with "Network not found" while the router has no route for it
        }
        return route.contains("[node ") && route.contains("[node2 ");
    }

    @Test
    @Order(1)
    void bothNodesAnnounceTheRestAndReportTheRefusedPeerAndNetworkInBirdsWords() throws Exception {
        for (Node n : List.of(a, b)) {
            Map<String, SessionReport> r = n.apply();
            assertThat(r.get(BAD_PEER).state()).isEqualTo("Idle");
            assertThat(r.get(BAD_PEER).lastError()).startsWith("BIRD refused BGPPeer " + BAD_PEER + ", left out of"
                    + " this node's configuration: bird.conf:")
                    .endsWith("Multihop BGP with BFD requires specified local address");
            assertThat(n.metrics.bgpRefusedCount()).isEqualTo(2);
            assertThat(n.metrics.scrape()).contains("juneau_agent_bgp_refused{kind=\"BGPPeer\",name=\"" + BAD_PEER
                    + "\"} 1.0").contains("juneau_agent_bgp_refused{kind=\"ExternalNetwork\",name=\"" + BAD_NETWORK
                    + "\"} 1.0");
        }
        within(Duration.ofSeconds(30), () -> {
            for (Node n : List.of(a, b)) {
                SessionReport tor = n.apply().get("tor");
                assertThat(tor.state()).isEqualTo("Established");
                assertThat(tor.withheld()).containsOnlyKeys(BAD_NETWORK);
                assertThat(tor.withheld().get(BAD_NETWORK)).startsWith("BIRD refused ExternalNetwork " + BAD_NETWORK)
                        .contains("out of bounds");
                assertThat(tor.routes()).as("the routes of public only").isEqualTo(1);
            }
            assertThat(fromBoth(EXISTING)).isTrue();
        });
        assertThat(lab.routerKernelRoute("198.18.101.1/32")).as("the refused network's route").isBlank();
        startWatching();
    }

    /** Polls the router for the routes announced so far; any one missing once is recorded. */
    void startWatching() {
        watching.set(true);
        List<String> known = List.copyOf(vips);
        watcher = new Thread(() -> {
            while (watching.get()) {
                for (String vip : known) {
                    try {
                        if (!lab.routerRoute(vip + "/32").contains(vip)) {
                            missing.add(vip + " at " + java.time.Instant.now());
                        }
                    } catch (Exception e) {
                        missing.add(vip + ": " + e.getMessage());
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "refused-piece-it-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @Test
    @Order(2)
    void aNewServicesRouteReachesTheRouterFromBothNodesWithinOneSecond() throws Exception {
        for (int i = 2; i <= 4; i++) {
            String vip = "198.18.100." + i;
            vips.add(vip);
            long t0 = System.nanoTime();
            a.apply();
            b.apply();
            long deadline = t0 + Duration.ofSeconds(1).toNanos();
            boolean seen = false;
            while (!seen && System.nanoTime() < deadline) {
                seen = fromBoth(vip);
                Thread.sleep(10);
            }
            assertThat(seen).as("%s from both nodes within 1 s of the plan: %s", vip, lab.routerRoute(vip + "/32"))
                    .isTrue();
            System.out.printf("RefusedPieceIT: %s at the router from both nodes %d ms after the plan%n", vip,
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    @Test
    @Order(3)
    void theUnchangedRefusedPiecesAreNotTriedAgainAtEveryTurn() {
        double before = a.metrics.bgpRefusals();
        for (int i = 0; i < 20; i++) {
            a.apply();
        }
        // held out for a second after each refusal (then 2 s, 4 s ... a minute): 20 quick turns try each at most once
        assertThat(a.metrics.bgpRefusals() - before).isLessThanOrEqualTo(2);
    }

    @Test
    @Order(4)
    void anAgentStartedAgainInThatStateStartsBirdWithTheRest() throws Exception {
        a.driver.close();
        a.driver = new BgpDriver(a.settings, a.metrics, Clock.systemUTC());
        Map<String, SessionReport> r = a.apply();
        assertThat(a.driver.birdPid()).as("BIRD runs").isPositive();
        assertThat(r.get(BAD_PEER).lastError()).contains("Multihop BGP with BFD requires specified local address");
        within(Duration.ofSeconds(30), () -> {
            assertThat(a.apply().get("tor").state()).isEqualTo("Established");
            for (String vip : vips) {
                assertThat(fromBoth(vip)).as(vip).isTrue();
            }
        });
        watching.set(false);
        assertThat(watcher).as("watching since the first test").isNotNull();
        watcher.join(5000);
        assertThat(missing).as("routes the router lost while pieces were refused").isEmpty();
    }

    @Test
    @Order(5)
    void birdsOwnStartUpErrorIsTheReportedError() {
        BgpDriver broken = new BgpDriver(new BgpDriver.Settings(BgpLab.BIRD, lab.dir.resolve("bird-broken"),
                lab.nodePrefix()), new AgentMetrics(), Clock.systemUTC(),
                c -> "router id " + BgpLab.NODE_IP + ";\nprotocol nonsense {\n}\n");
        try {
            SessionReport r = broken.apply(a.plan()).get(0);
            assertThat(r.lastError()).startsWith("BIRD did not start: BIRD exited with status 1 at start: bird: ")
                    .contains("bird.conf:2:").contains("syntax error");
            assertThat(broken.birdPid()).isEqualTo(-1);
        } finally {
            broken.close();
        }
    }

    @Test
    @Order(6)
    void aRefusalOfTheWholeKeepsTheEarlierConfigurationAndIsTriedAgainOnlyAfterItsBackoff() throws Exception {
        b.driver.close();
        AtomicBoolean broken = new AtomicBoolean();
        AgentMetrics metrics = new AgentMetrics();
        // a line outside every peer's and network's block: no piece to leave out
        BgpDriver whole = new BgpDriver(b.settings, metrics, Clock.systemUTC(),
                c -> BirdConfigRenderer.render(c) + (broken.get() ? "nonsense;\n" : ""));
        try {
            within(Duration.ofSeconds(30), () -> assertThat(stateOf(whole.apply(b.plan()), "tor"))
                    .isEqualTo("Established"));
            broken.set(true);
            vips.add("198.18.100.9");
            SessionReport tor = reportOf(whole.apply(b.plan()), "tor");
            assertThat(tor.lastError()).startsWith("BIRD refused the configuration: ").contains("bird.conf:");
            assertThat(tor.state()).as("BIRD keeps the earlier configuration").isEqualTo("Established");
            assertThat(tor.withheld().get("public")).startsWith("this node's BIRD still runs an earlier"
                    + " configuration: BIRD refused the configuration: ");
            double refusals = metrics.bgpRefusals();
            for (int i = 0; i < 20; i++) {
                whole.apply(b.plan());
            }
            assertThat(metrics.bgpRefusals()).as("the same refused text is not tried again within its backoff")
                    .isEqualTo(refusals);
            broken.set(false);
            // another text: tried once a second has passed since the refusal (at most one attempt a second)
            within(Duration.ofSeconds(5), () -> {
                SessionReport fixed = reportOf(whole.apply(b.plan()), "tor");
                assertThat(fixed.lastError()).isNull();
                assertThat(fixed.withheld()).containsOnlyKeys(BAD_NETWORK);
            });
            assertThat(metrics.bgpRefusals()).as("the fixed text taken at its first attempt; only the refused peer's"
                    + " and network's own retries (their second came) are refused again")
                    .isLessThanOrEqualTo(refusals + 2);
            within(Duration.ofSeconds(5), () -> assertThat(lab.routerRoute("198.18.100.9/32")).contains("[node2 "));
        } finally {
            whole.close();
        }
    }

    static SessionReport reportOf(List<SessionReport> reports, String peer) {
        return reports.stream().filter(r -> r.peer().equals(peer)).findFirst().orElseThrow();
    }

    static String stateOf(List<SessionReport> reports, String peer) {
        return reportOf(reports, peer).state();
    }
}
