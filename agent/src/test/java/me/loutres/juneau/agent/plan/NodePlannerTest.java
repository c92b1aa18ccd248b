package me.loutres.juneau.agent.plan;

import static me.loutres.juneau.agent.plan.PlanObjects.bgp;
import static me.loutres.juneau.agent.plan.PlanObjects.bgpNetwork;
import static me.loutres.juneau.agent.plan.PlanObjects.peer;
import static me.loutres.juneau.agent.plan.PlanObjects.profile;
import static me.loutres.juneau.agent.plan.PlanObjects.slb;
import static me.loutres.juneau.agent.plan.PlanObjects.withPassword;
import static me.loutres.juneau.agent.plan.PlanObjects.withSelector;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import me.loutres.juneau.agent.bgp.BfdTiming;
import me.loutres.juneau.agent.bgp.Neighbor;
import me.loutres.juneau.agent.bgp.NetworkRoutes;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.bgp.Community;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a node must do, for each kind of situation its agent can see (docs/bgp.md). */
class NodePlannerTest {
    static final String NODE = "node-a";
    static final Map<String, String> LABELS = Map.of("rack", "r1", "kubernetes.io/hostname", NODE);

    record Case(List<ServiceLoadBalancer> slbs, List<ExternalNetwork> networks, List<BGPPeer> peers,
                List<BFDProfile> profiles, Map<String, Map<String, String>> secrets, Map<String, String> labels,
                String internalIp) {
        NodePlan plan() {
            return NodePlanner.plan(new NodeView(NODE, labels, internalIp, null, List.of(), slbs, networks, peers,
                    profiles, secrets));
        }
    }

    static Case base() {
        return new Case(List.of(slb("web", "public", "198.18.100.1", NODE, "node-b")),
                List.of(bgpNetwork("public", null, null)), List.of(peer("tor", "198.18.0.1", 65000, 65001)), List.of(),
                Map.of(), LABELS, "198.18.0.2");
    }

    static Arguments row(String name, Case c, Consumer<NodePlan> expect) {
        return Arguments.of(name, c, expect);
    }

    static NetworkRoutes routes(NodePlan p, String network) {
        return p.bird().networks().stream().filter(n -> n.network().equals(network)).findFirst().orElseThrow();
    }

    static Neighbor neighbor(NodePlan p, String peer) {
        return p.bird().neighbors().stream().filter(n -> n.peer().equals(peer)).findFirst().orElseThrow();
    }

    static Stream<Arguments> cases() {
        Case b = base();
        return Stream.of(
                row("an advertising node announces the VIP/32 to the peer, router id from its InternalIP", b, p -> {
                    assertThat(routes(p, "public").prefixes()).extracting(Object::toString)
                            .containsExactly("198.18.100.1/32");
                    assertThat(neighbor(p, "tor").networks()).containsExactly("public");
                    assertThat(p.bird().routerId()).isEqualTo("198.18.0.2");
                    assertThat(p.sessions()).singleElement().satisfies(s -> {
                        assertThat(s.peer()).isEqualTo("tor");
                        assertThat(s.peerUid()).isEqualTo("uid-tor");
                        assertThat(s.problem()).isNull();
                    });
                    assertThat(p.needsBird()).isTrue();
                }),
                row("a node not in advertisingNodes keeps the session and announces nothing",
                        new Case(List.of(slb("web", "public", "198.18.100.1", "node-b")), b.networks(), b.peers(),
                                List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> {
                            assertThat(routes(p, "public").prefixes()).isEmpty();
                            assertThat(p.bird().neighbors()).hasSize(1);
                        }),
                row("a ServiceLoadBalancer on an arp network or without a VIP is not routed",
                        new Case(List.of(slb("arp", "lan", "198.18.1.1", NODE), slb("new", "public", null, NODE)),
                                b.networks(), b.peers(), List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> assertThat(routes(p, "public").prefixes()).isEmpty()),
                row("aggregationLength 24 announces the covering /24 once for two VIPs under it",
                        new Case(List.of(slb("a", "public", "198.18.100.1", NODE), slb("b", "public", "198.18.100.77",
                                NODE)), List.of(bgpNetwork("public", bgp(null, null, null, 24), null)), b.peers(),
                                List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> assertThat(routes(p, "public").prefixes()).extracting(Object::toString)
                                .containsExactly("198.18.100.0/24")),
                row("communities and localPref come from the network; a bad community is reported and left out",
                        new Case(b.slbs(), List.of(bgpNetwork("public", bgp(null, List.of("65000:100", "no-export",
                                "1:2:3", "70000:1"), 300L, null), null)), b.peers(), List.of(), Map.of(), LABELS,
                                b.internalIp()),
                        p -> {
                            assertThat(routes(p, "public").communities()).containsExactly(
                                    new Community.Standard(65000, 100), new Community.Standard(65535, 65281),
                                    new Community.Large(1, 2, 3));
                            assertThat(routes(p, "public").localPref()).isEqualTo(300L);
                            assertThat(p.problems()).singleElement().asString()
                                    .startsWith("ExternalNetwork public: spec.bgp.communities[3]: \"70000:1\" is not a community");
                        }),
                row("a network that names peers is sent only to them",
                        new Case(b.slbs(), List.of(bgpNetwork("public", bgp(List.of("tor-2"), null, null, null),
                                null)), List.of(peer("tor", "198.18.0.1", 65000, 65001),
                                peer("tor-2", "198.18.0.4", 65000, 65001)), List.of(), Map.of(), LABELS,
                                b.internalIp()),
                        p -> {
                            assertThat(neighbor(p, "tor").networks()).isEmpty();
                            assertThat(neighbor(p, "tor-2").networks()).containsExactly("public");
                        }),
                row("a peer whose nodeSelectors exclude the node gets no session from it",
                        new Case(b.slbs(), b.networks(), List.of(withSelector(peer("tor", "198.18.0.1", 65000, 65001),
                                Map.of("rack", "r2"))), List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> {
                            assertThat(p.bird().neighbors()).isEmpty();
                            assertThat(p.sessions()).isEmpty();
                        }),
                row("a peer whose nodeSelectors select the node peers",
                        new Case(b.slbs(), b.networks(), List.of(withSelector(peer("tor", "198.18.0.1", 65000, 65001),
                                Map.of("rack", "r1"))), List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> assertThat(p.bird().neighbors()).extracting(Neighbor::peer).containsExactly("tor")),
                row("a network whose nodeSelector excludes the node: no routes of it, nothing sent",
                        new Case(b.slbs(), List.of(bgpNetwork("public", null, new LabelSelectorBuilder()
                                .withMatchLabels(Map.of("rack", "r9")).build())), b.peers(), List.of(), Map.of(), LABELS,
                                b.internalIp()),
                        p -> {
                            assertThat(p.bird().networks()).isEmpty();
                            assertThat(neighbor(p, "tor").networks()).isEmpty();
                        }),
                row("a node labelled exclude-from-external-load-balancers announces nothing and peers with nobody",
                        new Case(b.slbs(), b.networks(), b.peers(), List.of(), Map.of(), Map.of(
                                "node.kubernetes.io/exclude-from-external-load-balancers", ""), b.internalIp()),
                        p -> assertThat(p.needsBird()).isFalse()),
                row("the MD5 password comes from the Secret the peer names",
                        new Case(b.slbs(), b.networks(), List.of(withPassword(peer("tor", "198.18.0.1", 65000, 65001),
                                "tor-md5", "password")), List.of(), Map.of("tor-md5", Map.of("password", base64("s3cret"))),
                                LABELS, b.internalIp()),
                        p -> assertThat(neighbor(p, "tor").password()).isEqualTo("s3cret")),
                row("a missing Secret key leaves the peer out, with the reason on its session",
                        new Case(b.slbs(), b.networks(), List.of(withPassword(peer("tor", "198.18.0.1", 65000, 65001),
                                "tor-md5", "password")), List.of(), Map.of("tor-md5", Map.of("other", base64("x"))), LABELS,
                                b.internalIp()),
                        p -> {
                            assertThat(p.bird().neighbors()).isEmpty();
                            assertThat(p.sessions()).singleElement().extracting(NodePlan.SessionPlan::problem)
                                    .asString().contains("juneau-system/tor-md5").contains("no key 'password'");
                        }),
                row("BFD from the profile, its defaults where unset",
                        new Case(b.slbs(), b.networks(), List.of(bfd(peer("tor", "198.18.0.1", 65000, 65001), "fast")),
                                List.of(profile("fast", 100, null, null, true)), Map.of(), LABELS, b.internalIp()),
                        p -> {
                            assertThat(neighbor(p, "tor").bfd()).isEqualTo(new BfdTiming(100, 300, 3, true));
                            assertThat(p.sessions().get(0).bfd()).isTrue();
                        }),
                row("a missing BFD profile leaves the peer out, with the reason",
                        new Case(b.slbs(), b.networks(), List.of(bfd(peer("tor", "198.18.0.1", 65000, 65001), "gone")),
                                List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> assertThat(p.sessions().get(0).problem()).contains("BFDProfile gone does not exist")),
                row("hold and keepalive times in seconds, port and multihop as given",
                        new Case(b.slbs(), b.networks(), List.of(timers(peer("tor", "198.18.0.1", 65000, 65001), "1m30s",
                                "30s")), List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> {
                            Neighbor n = neighbor(p, "tor");
                            assertThat(n.holdSeconds()).isEqualTo(90);
                            assertThat(n.keepaliveSeconds()).isEqualTo(30);
                            assertThat(n.port()).isEqualTo(1179);
                            assertThat(n.multihop()).isTrue();
                        }),
                // issue 37 / 44: the agent reads with shared-model's rules, so what admission admits it plans
                row("Go's duration forms: holdTime \"0\" (no keepalives) and \"0.3s2.4s0.3s\" (3 s)",
                        new Case(b.slbs(), b.networks(), List.of(timers(peer("tor", "198.18.0.1", 65000, 65001), "0",
                                null), timers(peer("tor-2", "198.18.0.4", 65000, 65001), "0.3s2.4s0.3s", "1.s")),
                                List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> {
                            assertThat(neighbor(p, "tor").holdSeconds()).isZero();
                            assertThat(neighbor(p, "tor").keepaliveSeconds()).isNull();
                            assertThat(neighbor(p, "tor-2").holdSeconds()).isEqualTo(3);
                            assertThat(neighbor(p, "tor-2").keepaliveSeconds()).isEqualTo(1);
                            assertThat(p.sessions()).allSatisfy(s -> assertThat(s.problem()).isNull());
                        }),
                row("what admission refuses, the planner refuses in admission's words: multihop BFD without a source",
                        new Case(b.slbs(), b.networks(), List.of(bfd(timers(peer("tor", "198.18.0.1", 65000, 65001),
                                null, null), "fast")), List.of(profile("fast", null, null, null, false)), Map.of(),
                                LABELS, b.internalIp()),
                        p -> {
                            assertThat(p.bird().neighbors()).isEmpty();
                            assertThat(p.sessions().get(0).problem()).startsWith("spec.sourceAddress: missing, but the"
                                    + " session is multihop (spec.ebgpMultiHop is true) and uses BFD");
                        }),
                row("a matchExpression Exists with values selects nothing, as Kubernetes refuses it (the agent's own"
                                + " copy used to select every labelled node)",
                        new Case(b.slbs(), b.networks(), List.of(withExpression(peer("tor", "198.18.0.1", 65000, 65001),
                                "rack", "Exists", List.of("r1"))), List.of(), Map.of(), LABELS, b.internalIp()),
                        p -> assertThat(p.sessions()).isEmpty()),
                row("a password of 80 bytes in 40 characters is used; 41 such characters (82 bytes) are not",
                        new Case(b.slbs(), b.networks(), List.of(withPassword(peer("tor", "198.18.0.1", 65000, 65001),
                                "tor-md5", "ok"), withPassword(peer("tor-2", "198.18.0.4", 65000, 65001), "tor-md5",
                                "long")), List.of(), Map.of("tor-md5", Map.of("ok", base64("\u00e9".repeat(40)),
                                "long", base64("\u00e9".repeat(41)))), LABELS, b.internalIp()),
                        p -> {
                            assertThat(neighbor(p, "tor").password()).isEqualTo("\u00e9".repeat(40));
                            assertThat(p.bird().neighbors()).extracting(Neighbor::peer).containsExactly("tor");
                            assertThat(p.sessions().get(1).problem()).isEqualTo("spec.passwordSecret: the value of key"
                                    + " 'long' in Secret juneau-system/tor-md5 is 82 bytes long; accepted: 1 to 80 bytes"
                                    + " of UTF-8 (the kernel's TCP MD5 key limit) without a double quote, backslash,"
                                    + " line break or NUL");
                        }),
                row("a Secret value that is not UTF-8 is refused, not silently changed",
                        new Case(b.slbs(), b.networks(), List.of(withPassword(peer("tor", "198.18.0.1", 65000, 65001),
                                "tor-md5", "password")), List.of(), Map.of("tor-md5", Map.of("password",
                                Base64.getEncoder().encodeToString(new byte[] {'a', (byte) 0xff}))), LABELS,
                                b.internalIp()),
                        p -> assertThat(p.sessions().get(0).problem()).contains("is not valid UTF-8")),
                row("without an InternalIP or --router-id BIRD cannot run, and says why",
                        new Case(b.slbs(), b.networks(), b.peers(), List.of(), Map.of(), LABELS, null),
                        p -> assertThat(p.birdProblem()).contains("--router-id")));
    }

    static BGPPeer bfd(BGPPeer p, String profile) {
        p.getSpec().setBfdProfile(profile);
        return p;
    }

    static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static BGPPeer withExpression(BGPPeer p, String key, String operator, List<String> values) {
        p.getSpec().setNodeSelectors(List.of(new LabelSelectorBuilder().withMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey(key).withOperator(operator).withValues(values).build())
                .build()));
        return p;
    }

    static BGPPeer timers(BGPPeer p, String hold, String keepalive) {
        p.getSpec().setHoldTime(hold);
        p.getSpec().setKeepaliveTime(keepalive);
        p.getSpec().setPeerPort(1179);
        p.getSpec().setEbgpMultiHop(true);
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plans(String name, Case c, Consumer<NodePlan> expect) {
        expect.accept(c.plan());
    }
}
