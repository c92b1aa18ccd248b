package me.loutres.juneau.plan;

import static me.loutres.juneau.plan.ServicePlannerTest.ALLOCATED;
import static me.loutres.juneau.plan.ServicePlannerTest.ARP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.BGP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.EXHAUSTED;
import static me.loutres.juneau.plan.ServicePlannerTest.NODES;
import static me.loutres.juneau.plan.ServicePlannerTest.NOW;
import static me.loutres.juneau.plan.ServicePlannerTest.VIP;
import static me.loutres.juneau.plan.ServicePlannerTest.cond;
import static me.loutres.juneau.plan.ServicePlannerTest.deadNodes;
import static me.loutres.juneau.plan.ServicePlannerTest.ours;
import static me.loutres.juneau.plan.ServicePlannerTest.service;
import static me.loutres.juneau.plan.ServicePlannerTest.slb;
import static me.loutres.juneau.plan.ServicePlannerTest.slices;
import static me.loutres.juneau.plan.ServicePlannerTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.plan.AnnounceFacts.SessionReport;
import me.loutres.juneau.selection.NodeEligibility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who may announce (the network's node selector, Kubernetes' exclusion label, nodes that run an agent) and
 * condition Announced (what the agents report), as tables.
 */
class ServicePlannerSelectionTest {
    static final String EXCLUDE = NodeEligibility.EXCLUDE_LABEL;
    static final LabelSelector ZONE_A = new LabelSelectorBuilder().addNewMatchExpression().withKey("zone")
            .withOperator("In").withValues("a").endMatchExpression().build();
    /** node-a, node-b in zone a; node-c in zone a but excluded; node-d in zone b. */
    static final Map<String, Map<String, String>> LABELS = Map.of(
            "node-a", Map.of("zone", "a"),
            "node-b", Map.of("zone", "a"),
            "node-c", Map.of("zone", "a", EXCLUDE, "true"),
            "node-d", Map.of("zone", "b"));

    static AnnounceFacts facts(LabelSelector selector, Map<String, Map<String, String>> labels) {
        return new AnnounceFacts(NodeEligibility.of("net", selector, labels), true, List.of(), List.of());
    }

    static PlanInput in(ServiceLoadBalancerStatus previous, NetworkResolution net, List<EndpointSlice> slices,
            ARPAdvertisement existing, NodeLiveness liveness, AnnounceFacts facts) {
        return new PlanInput(service(), slb(previous), net, ALLOCATED, "arp", slices, existing, liveness, NODES, null,
                NOW, facts);
    }

    static Stream<Arguments> selection() {
        return Stream.of(
                // network, selector, labels -> advertising nodes, totalReady
                Arguments.of("arp, selector and exclusion", ARP_NET, ZONE_A, LABELS, List.of("node-a", "node-b"), 2),
                Arguments.of("bgp, selector and exclusion", BGP_NET, ZONE_A, LABELS, List.of("node-a", "node-b"), 2),
                Arguments.of("bgp, exclusion only", BGP_NET, null, LABELS, List.of("node-a", "node-b", "node-d"), 3),
                Arguments.of("arp, NotIn", ARP_NET, new LabelSelectorBuilder().addNewMatchExpression().withKey("zone")
                        .withOperator("NotIn").withValues("a").endMatchExpression().build(), LABELS,
                        List.of("node-d"), 1),
                Arguments.of("arp, matchLabels", ARP_NET, new LabelSelectorBuilder().addToMatchLabels("zone", "b")
                        .build(), LABELS, List.of("node-d"), 1),
                Arguments.of("bgp, Exists on the exclusion label's absence", BGP_NET, new LabelSelectorBuilder()
                        .addNewMatchExpression().withKey("zone").withOperator("Exists").endMatchExpression().build(),
                        LABELS, List.of("node-a", "node-b", "node-d"), 3),
                Arguments.of("no labels known, no selector", BGP_NET, null, Map.of(),
                        List.of("node-a", "node-b", "node-c", "node-d"), 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selection")
    void selectorAndExclusionLimitAdvertisingNodesAndBothSummaries(String name, NetworkResolution net,
            LabelSelector selector, Map<String, Map<String, String>> labels, List<String> advertising, int ready) {
        ServicePlan p = ServicePlanner.plan(in(null, net, slices("node-a", "node-b", "node-c", "node-d"), null,
                NodeLiveness.unknown(), facts(selector, labels)));
        assertThat(p.status().getAdvertisingNodes()).containsExactlyElementsOf(advertising);
        assertThat(p.status().getBackendSummary().getLocalReadyNodes()).isEqualTo(advertising.size());
        assertThat(p.status().getBackendSummary().getTotalReady()).isEqualTo(ready);
        if (JuneauConstants.MODE_ARP.equals(((NetworkResolution.Usable) net).type())) {
            assertThat(advertising).contains(p.arp().node());
        }
    }

    @Test
    void availableSaysWhyANodeWithAReadyEndpointDoesNotAdvertise() {
        ServicePlan p = ServicePlanner.plan(in(null, BGP_NET, slices("node-a", "node-c", "node-d"), null,
                NodeLiveness.unknown(), facts(ZONE_A, LABELS)));
        Condition c = cond(p.status(), JuneauConstants.CONDITION_AVAILABLE);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getMessage()).isEqualTo("1 node(s) with a local ready backend may advertise VIP 10.0.0.1: node-a;"
                + " not advertising: node-c: excluded by node.kubernetes.io/exclude-from-external-load-balancers;"
                + " node-d: not selected by ExternalNetwork net (zone In [a])");
    }

    @Test
    void noNodeLeftIsDegradedWithTheReasons() {
        ServicePlan p = ServicePlanner.plan(in(status("Ready", VIP, "node-a"), ARP_NET, slices("node-c", "node-d"),
                ours("node-a"), NodeLiveness.unknown(), facts(ZONE_A, LABELS)));
        assertThat(p.status().getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
        assertThat(p.status().getAdvertisingNodes()).isEmpty();
        assertThat(p.status().getBackendSummary().getTotalReady()).isZero();
        assertThat(p.arp()).isInstanceOf(ArpAction.Delete.class);
        Condition c = cond(p.status(), JuneauConstants.CONDITION_AVAILABLE);
        assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_NO_READY_BACKENDS);
        assertThat(c.getMessage()).isEqualTo("VIP 10.0.0.1 has no node that may advertise it: every node with a"
                + " ready backend is left out (node-c: excluded by"
                + " node.kubernetes.io/exclude-from-external-load-balancers; node-d: not selected by ExternalNetwork"
                + " net (zone In [a])); remove the exclusion label, widen the ExternalNetwork's nodeSelector, or run"
                + " the backends on selected nodes");
    }

    @Test
    void anExcludedArpOwnerIsReplacedAtOnceAndLiftingTheExclusionMovesNothingBack() {
        Map<String, Map<String, String>> aExcluded = Map.of("node-a", Map.of(EXCLUDE, ""), "node-b", Map.of(),
                "node-c", Map.of());
        ServicePlan moved = ServicePlanner.plan(in(status("Ready", VIP, "node-a"), ARP_NET,
                slices("node-a", "node-b", "node-c"), ours("node-a"), NodeLiveness.unknown(), facts(null, aExcluded)));
        assertThat(moved.arp()).isInstanceOf(ArpAction.Move.class);
        String successor = moved.arp().node();
        assertThat(successor).isIn("node-b", "node-c");
        assertThat(moved.events()).extracting(PlannedEvent::reason)
                .containsExactly(JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED);

        ServicePlan lifted = ServicePlanner.plan(in(moved.status(), ARP_NET, slices("node-a", "node-b", "node-c"),
                ours(successor), NodeLiveness.unknown(), facts(null, Map.of())));
        assertThat(lifted.arp()).isEqualTo(new ArpAction.Keep(successor));
        assertThat(lifted.status().getAdvertisingNodes()).containsExactly("node-a", "node-b", "node-c");
    }

    @Test
    void aNodeWithoutAnAgentLeaseIsNoArpCandidateUnlessAllowed() {
        // deadNodes(): node-a..node-c hold fresh Leases; node-d has none
        AnnounceFacts strict = new AnnounceFacts(NodeEligibility.everyNode(), false, List.of(), List.of());
        ServicePlan onlyD = ServicePlanner.plan(in(null, ARP_NET, slices("node-d"), null, deadNodes(), strict));
        assertThat(onlyD.arp()).isEqualTo(new ArpAction.None());
        assertThat(onlyD.status().getAdvertisingNodes()).as("it still has a ready backend").containsExactly("node-d");
        assertThat(onlyD.status().getPhase()).isEqualTo(JuneauConstants.PHASE_ALLOCATED);
        assertThat(cond(onlyD.status(), JuneauConstants.CONDITION_AVAILABLE).getMessage()).isEqualTo(
                "VIP 10.0.0.1 is answered by no node: no node with a ready backend runs a juneau-agent (no Lease"
                        + " juneau-agent-<node> for node-d); install the agent DaemonSet on those nodes, or start the"
                        + " controller with --arp-without-agents where no agent is meant to answer");

        ServicePlan dAndB = ServicePlanner.plan(in(null, ARP_NET, slices("node-b", "node-d"), null, deadNodes(),
                strict));
        assertThat(dAndB.arp().node()).isEqualTo("node-b");

        AnnounceFacts lenient = new AnnounceFacts(NodeEligibility.everyNode(), true, List.of(), List.of());
        assertThat(ServicePlanner.plan(in(null, ARP_NET, slices("node-d"), null, deadNodes(), lenient)).arp().node())
                .isEqualTo("node-d");
        assertThat(ServicePlanner.plan(in(null, ARP_NET, slices("node-d"), null, NodeLiveness.unknown(), lenient))
                .arp().node()).isEqualTo("node-d");
    }

    // ---- Announced ----

    static ARPAdvertisement reported(String node, String status, String reason, String message) {
        ARPAdvertisement a = ours(node);
        ARPAdvertisementStatus st = new ARPAdvertisementStatus();
        st.setNode(node);
        st.setInterfaceName("eth0");
        st.setMacAddress("02:00:00:00:00:0a");
        st.setConditions(List.of(new ConditionBuilder().withType(JuneauConstants.CONDITION_ANNOUNCED)
                .withStatus(status).withReason(reason).withMessage(message).build()));
        a.setStatus(st);
        return a;
    }

    static Stream<Arguments> arpAnnounced() {
        return Stream.of(
                Arguments.of("agent answers", reported("node-a", "True", "Announced", ""), "True/Announced",
                        "node node-a answers ARP for VIP 10.0.0.1 on eth0 (02:00:00:00:00:0a)"),
                Arguments.of("interface missing", reported("node-a", "False", "InterfaceNotFound",
                        "interface eth9 is not on node-a"), "False/InterfaceNotFound",
                        "node-a: InterfaceNotFound: interface eth9 is not on node-a"),
                Arguments.of("socket not opened", reported("node-a", "False", "SocketError",
                        "eth0: Operation not permitted"), "False/SocketError",
                        "node-a: SocketError: eth0: Operation not permitted"),
                Arguments.of("another reason of the agent", reported("node-a", "False", "InvalidConfig",
                        "spec.address: \"x\" is not an IPv4 address"), "False/NotAnnounced",
                        "node-a: InvalidConfig: spec.address: \"x\" is not an IPv4 address"),
                Arguments.of("no report yet", ours("node-a"), "False/NotAnnounced",
                        "node-a: its agent has not reported on ARPAdvertisement slb-ns-web yet; check the"
                                + " juneau-agent pod on node-a (kubectl -n juneau-system get pods -o wide)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arpAnnounced")
    void arpAnnouncedComesFromTheOwnersReport(String name, ARPAdvertisement existing, String brief, String message) {
        ServicePlan p = ServicePlanner.plan(in(status("Ready", VIP, "node-a"), ARP_NET, slices("node-a"), existing,
                NodeLiveness.unknown(), AnnounceFacts.lenient()));
        Condition c = cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED);
        assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo(brief);
        assertThat(c.getMessage()).isEqualTo(message);
        assertThat(cond(p.status(), JuneauConstants.CONDITION_AVAILABLE).getMessage())
                .as("Available says who may, never that it is announced").doesNotContain("announced", "answers ARP");
    }

    @Test
    void aReportOfThePreviousOwnerSaysNothingAboutTheNewOne() {
        // node-a reported True, then it lost its backend: node-b is elected and has reported nothing yet
        ServicePlan p = ServicePlanner.plan(in(status("Ready", VIP, "node-a"), ARP_NET, slices("node-b"),
                reported("node-a", "True", "Announced", ""), NodeLiveness.unknown(), AnnounceFacts.lenient()));
        assertThat(p.arp()).isEqualTo(new ArpAction.Move(reported("node-a", "True", "Announced", ""), "node-b"));
        assertThat(cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED).getStatus()).isEqualTo("False");
        assertThat(cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED).getMessage()).startsWith("node-b: its agent"
                + " has not reported");
    }

    static Stream<Arguments> bgpAnnounced() {
        SessionReport aUp = new SessionReport("tor-1", "node-a", "Established", null);
        SessionReport aDown = new SessionReport("tor-1", "node-a", "Active", "connection refused");
        SessionReport bOther = new SessionReport("tor-9", "node-b", "Established", null);
        SessionReport bIdle = new SessionReport("tor-1", "node-b", "Idle", null);
        String refused = "BIRD refused ExternalNetwork public, left out of this node's configuration: bird.conf:12:36"
                + " filter preevaluation";
        SessionReport aWithheld = new SessionReport("tor-1", "node-a", "Established", null, refused);
        SessionReport bUp = new SessionReport("tor-1", "node-b", "Established", null);
        return Stream.of(
                Arguments.of("established but its BIRD withholds the network's routes", List.of(aWithheld, bUp),
                        List.of(), "True/Announced", "VIP 10.0.0.1 is announced by node-b (tor-1); not by node-a:"
                                + " its BIRD does not carry the routes of this network (tor-1: " + refused + ")"),
                Arguments.of("every node withholds them", List.of(aWithheld), List.of(), "False/NotAnnounced",
                        "node-a: its BIRD does not carry the routes of this network (tor-1: " + refused + ");"
                                + " node-b: no BGPSession (no BGPPeer selects this node, or its juneau-agent does"
                                + " not run); check kubectl get bgpsessions and the peers"),
                Arguments.of("one node established", List.of(aUp, bIdle), List.of(), "True/Announced",
                        "VIP 10.0.0.1 is announced by node-a (tor-1); not by node-b: no Established session"
                                + " (tor-1: Idle)"),
                Arguments.of("nothing established", List.of(aDown, bIdle), List.of(), "False/NotAnnounced",
                        "node-a: no Established session (tor-1: Active, connection refused); node-b: no Established"
                                + " session (tor-1: Idle); check kubectl get bgpsessions and the peers"),
                Arguments.of("established only with a peer outside the network", List.of(aDown, bOther),
                        List.of("tor-1"), "False/NotAnnounced",
                        "node-a: no Established session (tor-1: Active, connection refused); node-b: no BGPSession"
                                + " with tor-1 (no BGPPeer selects this node, or its juneau-agent does not run);"
                                + " check kubectl get bgpsessions and the peers"),
                Arguments.of("every peer counts when the network names none", List.of(aDown, bOther), List.of(),
                        "True/Announced", "VIP 10.0.0.1 is announced by node-b (tor-9); not by node-a: no"
                                + " Established session (tor-1: Active, connection refused)"),
                Arguments.of("no session at all", List.of(), List.of(), "False/NotAnnounced",
                        "node-a: no BGPSession (no BGPPeer selects this node, or its juneau-agent does not run);"
                                + " node-b: no BGPSession (no BGPPeer selects this node, or its juneau-agent does not"
                                + " run); check kubectl get bgpsessions and the peers"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bgpAnnounced")
    void bgpAnnouncedComesFromTheSessionsOfTheAdvertisingNodes(String name, List<SessionReport> sessions,
            List<String> peers, String brief, String message) {
        AnnounceFacts f = new AnnounceFacts(NodeEligibility.everyNode(), true, sessions, peers);
        ServicePlan p = ServicePlanner.plan(in(status("Ready", VIP, null), BGP_NET, slices("node-a", "node-b"), null,
                NodeLiveness.unknown(), f));
        Condition c = cond(p.status(), JuneauConstants.CONDITION_ANNOUNCED);
        assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo(brief);
        assertThat(c.getMessage()).isEqualTo(message);
        assertThat(cond(p.status(), JuneauConstants.CONDITION_AVAILABLE).getStatus()).isEqualTo("True");
    }

    @Test
    void withoutAVipAnnouncedIsNotAllocated() {
        PlanInput in = new PlanInput(service(), slb(null), ARP_NET, EXHAUSTED, "arp", slices("node-a"), null,
                NodeLiveness.unknown(), NODES, null, NOW, AnnounceFacts.lenient());
        Condition c = cond(ServicePlanner.plan(in).status(), JuneauConstants.CONDITION_ANNOUNCED);
        assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo("False/NotAllocated");
        assertThat(c.getMessage()).startsWith("no VIP allocated: no free address in AddressPool pool-a");
    }

    @Test
    void aSessionThatComesUpChangesOnlyAnnounced() {
        AnnounceFacts down = new AnnounceFacts(NodeEligibility.everyNode(), true,
                List.of(new SessionReport("tor-1", "node-a", "Connect", null)), List.of());
        ServicePlan first = ServicePlanner.plan(in(status("Ready", VIP, null), BGP_NET, slices("node-a"), null,
                NodeLiveness.unknown(), down));
        AnnounceFacts up = new AnnounceFacts(NodeEligibility.everyNode(), true,
                List.of(new SessionReport("tor-1", "node-a", "Established", null)), List.of());
        ServicePlan second = ServicePlanner.plan(in(first.status(), BGP_NET, slices("node-a"), null,
                NodeLiveness.unknown(), up));
        assertThat(second.statusChanged()).isTrue();
        assertThat(cond(second.status(), JuneauConstants.CONDITION_ANNOUNCED).getStatus()).isEqualTo("True");
        assertThat(cond(second.status(), JuneauConstants.CONDITION_AVAILABLE))
                .isEqualTo(cond(first.status(), JuneauConstants.CONDITION_AVAILABLE));
        assertThat(second.events()).isEmpty();
        assertThat(ServicePlanner.plan(in(second.status(), BGP_NET, slices("node-a"), null, NodeLiveness.unknown(),
                up)).statusChanged()).as("unchanged reports write nothing").isFalse();
    }
}
