package me.loutres.juneau.plan;

import me.loutres.juneau.policy.ManagedServices;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.status.AllocationState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The decisions of one Service reconcile, as tables: phases and reasons (docs/phases-and-conditions.md), ARP. */
class ServicePlannerTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00.750Z");
    static final String VIP = "10.0.0.1";
    static final Set<String> NODES = Set.of("node-a", "node-b", "node-c", "node-d");
    /** Nodes whose agent runs (node-d has none: judged by its endpoints). */
    static final List<String> WITH_AGENT = List.of("node-a", "node-b", "node-c");

    static final NetworkResolution ARP_NET = usable("arp");
    static final NetworkResolution BGP_NET = usable("bgp");
    static final NetworkResolution NO_NET = new NetworkResolution.Unavailable("ExternalNetwork \"net\" does not exist");

    static final AllocationState ALLOCATED = new AllocationState.Allocated(VIP, "pool-a");
    static final AllocationState EXHAUSTED = new AllocationState.Pending(JuneauConstants.REASON_POOL_EXHAUSTED,
            "no free address in AddressPool pool-a (1/1 used)");
    static final AllocationState IN_USE = new AllocationState.Pending(JuneauConstants.REASON_REQUESTED_IP_IN_USE,
            "requested IP 10.0.0.1 is already the VIP of Service ns/other");
    static final AllocationState INVALID = new AllocationState.Failed(JuneauConstants.REASON_INVALID_CONFIG,
            "requested IP 10.9.9.9 is outside every AddressPool");
    static final AllocationState UNAVAILABLE = new AllocationState.Failed(
            JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE, "ExternalNetwork \"net\" does not exist");
    static final AllocationState KEPT = new AllocationState.KeptUnusable(VIP, "pool-a",
            JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE, "ExternalNetwork \"net\" does not exist");

    // ---- fixtures ----

    static NetworkResolution usable(String type) {
        AddressPool p = new AddressPool();
        p.getMetadata().setName("pool-a");
        p.setSpec(new AddressPoolSpec(type, List.of("arp".equals(type) ? "10.0.0.1-10.0.0.9" : "10.0.0.0/24")));
        return new NetworkResolution.Usable("net", type, List.of(p));
    }

    static Service service(String... ingressIps) {
        ServiceBuilder b = new ServiceBuilder().withNewMetadata().withNamespace("ns").withName("web").withUid("uid-1")
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "net").endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local").addNewPort().withName("http").withProtocol("TCP").withPort(80)
                .endPort().endSpec();
        if (ingressIps.length > 0) {
            b.withNewStatus().withNewLoadBalancer().withIngress(java.util.Arrays.stream(ingressIps)
                    .map(ip -> new LoadBalancerIngressBuilder().withIp(ip).withIpMode("VIP").build()).toList())
                    .endLoadBalancer().endStatus();
        }
        return b.build();
    }

    static ServiceLoadBalancer slb(ServiceLoadBalancerStatus status) {
        ServiceLoadBalancer s = ServicePlanner.shell(service(), null).orElseThrow();
        s.getMetadata().setGeneration(3L);
        s.getMetadata().setUid("slb-uid");
        s.setStatus(status);
        return s;
    }

    static ServiceLoadBalancerStatus status(String phase, String vip, String arpNode) {
        ServiceLoadBalancerStatus s = new ServiceLoadBalancerStatus();
        s.setPhase(phase);
        s.setVip(vip);
        s.setAddressPool(vip == null ? null : "pool-a");
        s.setArpAnnouncingNode(arpNode);
        return s;
    }

    static List<EndpointSlice> slices(String... readyNodes) {
        List<io.fabric8.kubernetes.api.model.discovery.v1.Endpoint> eps = new ArrayList<>();
        for (int i = 0; i < readyNodes.length; i++) {
            eps.add(new EndpointBuilder().withAddresses("10.244.0." + (i + 1)).withNodeName(readyNodes[i])
                    .withNewConditions().withReady(true).endConditions().build());
        }
        return List.of(new EndpointSliceBuilder().withNewMetadata().withNamespace("ns").withName("web-x")
                .addToLabels(JuneauConstants.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                .withEndpoints(eps).build());
    }

    static ARPAdvertisement arp(String node, String ownerNs, String ownerName, String address) {
        ARPAdvertisement a = ServicePlanner.advertisement(ownerNs, ownerName, "net", address, node);
        a.getMetadata().setName("slb-ns-web");
        a.getMetadata().setResourceVersion("7");
        return a;
    }

    /** The advertisement the controller writes for {@link #service}: its labels name the Service and its uid. */
    static ARPAdvertisement ours(String node) {
        ARPAdvertisement a = arp(node, "ns", "web", VIP);
        a.getMetadata().getLabels().put(JuneauConstants.LABEL_SERVICE_UID, "uid-1");
        return a;
    }

    static Lease lease(String node, String holder, Instant renewed, int seconds) {
        return new LeaseBuilder().withNewMetadata().withNamespace("juneau-system")
                .withName(NodeLiveness.LEASE_PREFIX + node).endMetadata().withNewSpec().withHolderIdentity(holder)
                .withRenewTime(renewed == null ? null : renewed.atZone(java.time.ZoneOffset.UTC)).withLeaseDurationSeconds(seconds)
                .endSpec().build();
    }

    /** A liveness where {@code dead} nodes' Leases expired a second ago and every other node's is fresh. */
    static NodeLiveness deadNodes(String... dead) {
        List<Lease> l = new ArrayList<>();
        for (String n : WITH_AGENT) {
            boolean d = List.of(dead).contains(n);
            l.add(lease(n, "agent-" + n, d ? NOW.minusSeconds(4) : NOW.minusSeconds(1), 3));
        }
        return NodeLiveness.of(l, NOW);
    }

    static PlanInput input(ServiceLoadBalancerStatus previous, NetworkResolution net, AllocationState allocation,
            List<EndpointSlice> slices, ARPAdvertisement existing) {
        return new PlanInput(service(), slb(previous), net, allocation, "arp", slices, existing, NodeLiveness.unknown(),
                NODES, null, NOW);
    }

    static Condition cond(ServiceLoadBalancerStatus s, String type) {
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    static String brief(Condition c) {
        return c.getStatus() + "/" + c.getReason();
    }

    // ---- phases and reasons ----

    static Stream<Arguments> phaseTransitions() {
        ServiceLoadBalancerStatus none = null;
        return Stream.of(
                // previous, network, allocation, ready nodes, existing ARP, denial -> phase, Allocated, Available
                Arguments.of("new, pool exhausted", none, ARP_NET, EXHAUSTED, slices("node-a"), null, null,
                        "Pending", "False/PoolExhausted", "False/NotAllocated"),
                Arguments.of("new, requested IP held", none, ARP_NET, IN_USE, slices(), null, null,
                        "Pending", "False/RequestedIPInUse", "False/NotAllocated"),
                Arguments.of("new, requested IP outside", none, ARP_NET, INVALID, slices(), null, null,
                        "Error", "False/InvalidConfig", "False/NotAllocated"),
                Arguments.of("new, network missing", none, NO_NET, UNAVAILABLE, slices(), null, null,
                        "Error", "False/ExternalNetworkUnavailable", "False/NotAllocated"),
                Arguments.of("new, allocated, no backend", none, ARP_NET, ALLOCATED, slices(), null, null,
                        "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("new, allocated, backend", none, ARP_NET, ALLOCATED, slices("node-a"), null, null,
                        "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("pending -> allocated", status("Pending", null, null), ARP_NET, ALLOCATED, slices(),
                        null, null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("allocated -> ready", status("Allocated", VIP, null), ARP_NET, ALLOCATED,
                        slices("node-b"), null, null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("ready -> degraded", status("Ready", VIP, "node-a"), ARP_NET, ALLOCATED, slices(),
                        ours("node-a"), null, "Degraded", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("degraded -> ready", status("Degraded", VIP, null), ARP_NET, ALLOCATED,
                        slices("node-c"), null, null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("bgp ready", status("Allocated", VIP, null), BGP_NET, ALLOCATED, slices("node-a"),
                        null, null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("ready -> network gone: Error, VIP kept", status("Ready", VIP, "node-a"), NO_NET, KEPT,
                        slices("node-a"), ours("node-a"), null, "Error", "False/ExternalNetworkUnavailable",
                        "True/Ready"),
                Arguments.of("error with VIP -> network back", status("Error", VIP, "node-a"), ARP_NET, ALLOCATED,
                        slices("node-a"), ours("node-a"), null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("ready -> write denied", status("Ready", VIP, "node-a"), ARP_NET, ALLOCATED,
                        slices("node-b"), null, new WriteDenial("create ARPAdvertisement \"slb-ns-web\"",
                                "node-b is not a Node"), "Degraded", "True/Allocated", "False/WriteDenied"),
                Arguments.of("allocated -> write denied", status("Allocated", VIP, null), ARP_NET, ALLOCATED,
                        slices("node-b"), null, new WriteDenial("create ARPAdvertisement \"slb-ns-web\"", "no"),
                        "Allocated", "True/Allocated", "False/WriteDenied"),
                Arguments.of("ready -> other Service owns the name", status("Ready", VIP, "node-a"), ARP_NET,
                        ALLOCATED, slices("node-a"), arp("node-a", "ns-web", "x", "10.0.0.2"), null, "Degraded",
                        "True/Allocated", "False/" + JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("phaseTransitions")
    void phasesAndReasons(String name, ServiceLoadBalancerStatus previous, NetworkResolution net,
            AllocationState allocation, List<EndpointSlice> slices, ARPAdvertisement existing, WriteDenial denial,
            String phase, String allocated, String available) {
        ServicePlan p = ServicePlanner.plan(input(previous, net, allocation, slices, existing).withDenial(denial));
        assertThat(p.status().getPhase()).isEqualTo(phase);
        assertThat(brief(cond(p.status(), JuneauConstants.CONDITION_ALLOCATED))).isEqualTo(allocated);
        assertThat(brief(cond(p.status(), JuneauConstants.CONDITION_AVAILABLE))).isEqualTo(available);
        assertThat(p.status().getObservedGeneration()).isEqualTo(3L);
        assertThat(p.statusChanged()).isTrue();
        boolean hasVip = allocation instanceof AllocationState.Allocated || allocation instanceof AllocationState.KeptUnusable;
        assertThat(p.status().getVip()).isEqualTo(hasVip ? VIP : null);
        assertThat(p.ingress()).extracting(LoadBalancerIngress::getIp).containsExactlyElementsOf(
                hasVip ? List.of(VIP) : List.of());
    }

    @Test
    void aKeptVipOverABrokenNetworkSaysSoAndLeavesTheAnsweringNodeAlone() {
        ServicePlan p = ServicePlanner.plan(input(status("Ready", VIP, "node-a"), NO_NET, KEPT, slices("node-b"),
                ours("node-a")));
        assertThat(p.arp()).isEqualTo(new ArpAction.Keep("node-a"));
        assertThat(cond(p.status(), JuneauConstants.CONDITION_ALLOCATED).getMessage())
                .isEqualTo("VIP 10.0.0.1 is kept, but ExternalNetwork \"net\" does not exist");
        assertThat(p.status().getVip()).isEqualTo(VIP);
        assertThat(p.status().getAddressPool()).isEqualTo("pool-a");
    }

    @Test
    void aDeniedWriteNamesTheWriteAndTheServersMessage() {
        WriteDenial d = new WriteDenial("create ARPAdvertisement \"slb-ns-web\" for node node-b",
                "spec.nodeName \"node-b\" is not an existing Node");
        ServicePlan p = ServicePlanner.plan(input(null, ARP_NET, ALLOCATED, slices("node-b"), null).withDenial(d));
        Condition c = cond(p.status(), JuneauConstants.CONDITION_AVAILABLE);
        assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_WRITE_DENIED);
        assertThat(c.getMessage()).contains("create ARPAdvertisement \"slb-ns-web\" for node node-b")
                .contains("spec.nodeName \"node-b\" is not an existing Node").contains("5 minutes");
        assertThat(p.status().getArpAnnouncingNode()).isNull();
    }

    // ---- ARP (docs/phases-and-conditions.md) ----

    static Stream<Arguments> arpActions() {
        return Stream.of(
                // ready nodes, existing, liveness, network, allocation -> action, node
                Arguments.of("first node: create", slices("node-a"), null, NodeLiveness.unknown(), ARP_NET, ALLOCATED,
                        "Create", "node-a"),
                Arguments.of("current still ready: keep (sticky)", slices("node-a", "node-b", "node-c"),
                        ours("node-c"), NodeLiveness.unknown(), ARP_NET, ALLOCATED, "Keep", "node-c"),
                Arguments.of("written before the Service uid label: moved in place to the same node to gain it",
                        slices("node-a", "node-b"), arp("node-a", "ns", "web", VIP), NodeLiveness.unknown(), ARP_NET,
                        ALLOCATED, "Move", "node-a"),
                Arguments.of("current lost its backend: move", slices("node-b"), ours("node-a"),
                        NodeLiveness.unknown(), ARP_NET, ALLOCATED, "Move", "node-b"),
                Arguments.of("no backend: delete", slices(), ours("node-a"), NodeLiveness.unknown(), ARP_NET,
                        ALLOCATED, "Delete", null),
                Arguments.of("no backend, nothing there: none", slices(), null, NodeLiveness.unknown(), ARP_NET,
                        ALLOCATED, "None", null),
                Arguments.of("current's agent Lease expired: move", slices("node-a", "node-b"), ours("node-a"),
                        deadNodes("node-a"), ARP_NET, ALLOCATED, "Move", "node-b"),
                Arguments.of("every ready node dead: delete", slices("node-a", "node-b"), ours("node-a"),
                        deadNodes("node-a", "node-b"), ARP_NET, ALLOCATED, "Delete", null),
                Arguments.of("a node without a Lease is judged by endpoints", slices("node-a", "node-d"),
                        ours("node-a"), deadNodes("node-a"), ARP_NET, ALLOCATED, "Move", "node-d"),
                Arguments.of("left from another VIP: replace", slices("node-a"), arp("node-a", "ns", "web", "10.0.0.5"),
                        NodeLiveness.unknown(), ARP_NET, ALLOCATED, "Replace", "node-a"),
                Arguments.of("name taken by another Service: conflict", slices("node-a"),
                        arp("node-a", "ns-web", "x", "10.0.0.2"), NodeLiveness.unknown(), ARP_NET, ALLOCATED,
                        "Conflict", null),
                Arguments.of("bgp: a left-over advertisement goes", slices("node-a"), ours("node-a"),
                        NodeLiveness.unknown(), BGP_NET, ALLOCATED, "Delete", null),
                Arguments.of("no VIP: a left-over advertisement goes", slices("node-a"), ours("node-a"),
                        NodeLiveness.unknown(), ARP_NET, EXHAUSTED, "Delete", null),
                Arguments.of("another Service's advertisement is never deleted", slices(), arp("node-a", "o", "x",
                        "10.0.0.2"), NodeLiveness.unknown(), BGP_NET, ALLOCATED, "None", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arpActions")
    void arpActionsFollowTheElection(String name, List<EndpointSlice> slices, ARPAdvertisement existing,
            NodeLiveness liveness, NetworkResolution net, AllocationState allocation, String action, String node) {
        PlanInput in = new PlanInput(service(), slb(status("Ready", VIP, null)), net, allocation, "arp", slices,
                existing, liveness, NODES, null, NOW);
        ServicePlan p = ServicePlanner.plan(in);
        assertThat(p.arp().getClass().getSimpleName()).isEqualTo(action);
        assertThat(p.arp().node()).isEqualTo(node);
        assertThat(p.status().getArpAnnouncingNode()).isEqualTo(node);
    }

    @Test
    void aCreatedAdvertisementPointsBackToItsServiceAndCarriesTheNodeLabel() {
        ServicePlan p = ServicePlanner.plan(input(null, ARP_NET, ALLOCATED, slices("node-a"), null));
        ARPAdvertisement a = ((ArpAction.Create) p.arp()).created();
        assertThat(a.getMetadata().getName()).isEqualTo("slb-ns-web");
        assertThat(a.getMetadata().getLabels()).containsEntry(JuneauConstants.LABEL_SERVICE_NAMESPACE, "ns")
                .containsEntry(JuneauConstants.LABEL_SERVICE_NAME, "web")
                .containsEntry(JuneauConstants.LABEL_SERVICE_UID, "uid-1")
                .containsEntry(JuneauConstants.LABEL_NODE, "node-a");
        assertThat(a.getSpec().getAddress()).isEqualTo(VIP);
        assertThat(a.getSpec().getExternalNetwork()).isEqualTo("net");
    }

    @Test
    void anAdvertisementForAServiceWithoutAUidHasNoUidLabel() {
        assertThat(ServicePlanner.advertisement("ns", "web", null, "net", VIP, "node-a").getMetadata().getLabels())
                .doesNotContainKey(JuneauConstants.LABEL_SERVICE_UID)
                .containsEntry(JuneauConstants.LABEL_SERVICE_NAME, "web");
    }

    @Test
    void aNodeNamedByAnEndpointButWithoutANodeObjectIsNoCandidate() {
        PlanInput in = new PlanInput(service(), slb(null), ARP_NET, ALLOCATED, "arp", slices("ghost", "node-b"),
                null, NodeLiveness.unknown(), NODES, null, NOW);
        assertThat(ServicePlanner.plan(in).arp().node()).isEqualTo("node-b");
    }

    @Test
    void whenOnlyDeadNodesHaveBackendsAvailableNamesThem() {
        PlanInput in = new PlanInput(service(), slb(status("Ready", VIP, "node-a")), ARP_NET, ALLOCATED, "arp",
                slices("node-a", "node-b"), ours("node-a"), deadNodes("node-a", "node-b"), NODES, null, NOW);
        ServicePlan p = ServicePlanner.plan(in);
        assertThat(p.status().getPhase()).isEqualTo(JuneauConstants.PHASE_DEGRADED);
        assertThat(p.status().getAdvertisingNodes()).as("dead nodes stay advertising").containsExactly("node-a",
                "node-b");
        Condition c = cond(p.status(), JuneauConstants.CONDITION_AVAILABLE);
        assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_NO_READY_BACKENDS);
        assertThat(c.getMessage()).contains("dead by its agent's Lease (node-a, node-b)");
        assertThat(p.events()).extracting(PlannedEvent::reason)
                .containsExactly(JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED);
    }

    // ---- lastTransitionTime ----

    @Test
    void lastTransitionTimeChangesOnlyWhenTheConditionsStatusChanges() {
        ServicePlan first = ServicePlanner.plan(new PlanInput(service(), slb(null), ARP_NET, ALLOCATED, "arp",
                slices("node-a"), null, NodeLiveness.unknown(), NODES, null, T0));
        assertThat(cond(first.status(), JuneauConstants.CONDITION_AVAILABLE).getLastTransitionTime())
                .isEqualTo("2026-12-01T10:00:00Z");

        // same status again, later: nothing changes, nothing to write
        ServicePlan same = ServicePlanner.plan(new PlanInput(service(), slb(first.status()), ARP_NET, ALLOCATED,
                "arp", slices("node-a"), ours("node-a"), NodeLiveness.unknown(), NODES, null, NOW));
        assertThat(same.statusChanged()).isFalse();
        assertThat(same.events()).isEmpty();
        assertThat(same.arp()).isEqualTo(new ArpAction.Keep("node-a"));

        // Available flips: its time is now (whole seconds); Allocated stays True and keeps its time
        ServicePlan down = ServicePlanner.plan(new PlanInput(service(), slb(first.status()), ARP_NET, ALLOCATED,
                "arp", slices(), ours("node-a"), NodeLiveness.unknown(), NODES, null, NOW));
        assertThat(cond(down.status(), JuneauConstants.CONDITION_AVAILABLE).getLastTransitionTime())
                .isEqualTo("2026-12-01T12:00:00Z");
        assertThat(cond(down.status(), JuneauConstants.CONDITION_ALLOCATED).getLastTransitionTime())
                .isEqualTo("2026-12-01T10:00:00Z");

        // a new reason with the same status (False -> False) keeps the time
        ServicePlan denied = ServicePlanner.plan(new PlanInput(service(), slb(down.status()), ARP_NET, ALLOCATED,
                "arp", slices("node-b"), null, NodeLiveness.unknown(), NODES, new WriteDenial("x", "y"),
                NOW.plusSeconds(60)));
        Condition c = cond(denied.status(), JuneauConstants.CONDITION_AVAILABLE);
        assertThat(c.getReason()).isEqualTo(JuneauConstants.REASON_WRITE_DENIED);
        assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-01T12:00:00Z");
    }

    // ---- events ----

    @Test
    void eventsSayEachChangeOnceAndNothingForAnUnchangedState() {
        ServicePlan alloc = ServicePlanner.plan(input(null, ARP_NET, ALLOCATED, slices("node-a"), null));
        assertThat(alloc.events()).containsExactly(PlannedEvent.normal(JuneauConstants.EVENT_IP_ALLOCATED,
                "allocated VIP 10.0.0.1 from AddressPool pool-a of ExternalNetwork \"net\"; node node-a is elected to"
                        + " answer ARP for it"));
        ServicePlan moved = ServicePlanner.plan(input(alloc.status(), ARP_NET, ALLOCATED, slices("node-b"),
                ours("node-a")));
        assertThat(moved.events()).containsExactly(PlannedEvent.normal(JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED,
                "node elected to answer ARP for VIP 10.0.0.1 changed: node-a -> node-b"));
        assertThat(moved.arpNodeChanged()).isTrue();

        ServicePlan failed = ServicePlanner.plan(input(null, ARP_NET, EXHAUSTED, slices(), null));
        assertThat(failed.events()).extracting(PlannedEvent::type, PlannedEvent::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Warning", JuneauConstants.EVENT_ALLOCATION_FAILED));
        ServicePlan stillFailed = ServicePlanner.plan(input(failed.status(), ARP_NET, EXHAUSTED, slices(), null));
        assertThat(stillFailed.events()).isEmpty();
        assertThat(stillFailed.statusChanged()).isFalse();
    }

    // ---- ingress ----

    static Stream<Arguments> ingresses() {
        LoadBalancerIngress withMode = new LoadBalancerIngressBuilder().withIp(VIP).withIpMode("VIP").build();
        LoadBalancerIngress dropped = new LoadBalancerIngressBuilder().withIp(VIP).build();
        LoadBalancerIngress proxy = new LoadBalancerIngressBuilder().withIp(VIP).withIpMode("Proxy").build();
        LoadBalancerIngress other = new LoadBalancerIngressBuilder().withIp("10.0.0.2").withIpMode("VIP").build();
        return Stream.of(
                Arguments.of("as written", List.of(withMode), false),
                Arguments.of("ipMode dropped by an API server < 1.30", List.of(dropped), false),
                Arguments.of("another ipMode", List.of(proxy), true),
                Arguments.of("another address", List.of(other), true),
                Arguments.of("none yet", List.of(), true),
                Arguments.of("one too many", List.of(withMode, other), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ingresses")
    void ingressIsComparedWithoutFieldsTheServerDropped(String name, List<LoadBalancerIngress> current,
            boolean changed) {
        Service svc = service();
        svc.setStatus(new io.fabric8.kubernetes.api.model.ServiceStatusBuilder().withNewLoadBalancer()
                .withIngress(current).endLoadBalancer().build());
        PlanInput in = new PlanInput(svc, slb(null), BGP_NET, ALLOCATED, "bgp", slices("node-a"), null,
                NodeLiveness.unknown(), NODES, null, NOW);
        ServicePlan p = ServicePlanner.plan(in);
        assertThat(p.ingressChanged()).isEqualTo(changed);
        assertThat(p.ingress()).containsExactly(new LoadBalancerIngressBuilder().withIp(VIP).withIpMode("VIP").build());
    }

    @Test
    void withoutAVipTheIngressIsCleared() {
        PlanInput in = new PlanInput(service(VIP), slb(null), ARP_NET, EXHAUSTED, "arp", slices(), null,
                NodeLiveness.unknown(), NODES, null, NOW);
        ServicePlan p = ServicePlanner.plan(in);
        assertThat(p.ingress()).isEmpty();
        assertThat(p.ingressChanged()).isTrue();
    }

    // ---- allocation need ----

    static ServiceLoadBalancer requesting(String requested, String vip, String pool) {
        Service svc = service();
        if (requested != null) {
            svc.getMetadata().getAnnotations().put(JuneauConstants.ANNOTATION_REQUESTED_IP, requested);
        }
        ServiceLoadBalancer s = ServicePlanner.shell(svc, null).orElseThrow();
        if (vip != null) {
            ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
            st.setVip(vip);
            st.setAddressPool(pool);
            s.setStatus(st);
        }
        return s;
    }

    static Stream<Arguments> needs() {
        Map<Long, String> nodeIps = Map.of(me.loutres.juneau.ip.Ipv4.parse("10.0.0.7"), "node-b");
        return Stream.of(
                Arguments.of("nothing requested", requesting(null, null, null), ARP_NET, nodeIps,
                        "Allocate", "requested=none"),
                Arguments.of("empty requested-ip = none", requesting("", null, null), ARP_NET, nodeIps,
                        "Allocate", "requested=none"),
                Arguments.of("whitespace requested-ip = none", requesting("  ", null, null), ARP_NET, nodeIps,
                        "Allocate", "requested=none"),
                Arguments.of("requested, trimmed", requesting(" 10.0.0.3 ", null, null), ARP_NET, nodeIps,
                        "Allocate", "requested=10.0.0.3"),
                Arguments.of("requested not an address", requesting("ten", null, null), ARP_NET, nodeIps,
                        "Decided", "InvalidConfig: annotation " + JuneauConstants.ANNOTATION_REQUESTED_IP
                                + " is \"ten\""),
                Arguments.of("requested = a Node's InternalIP (arp)", requesting("10.0.0.7", null, null), ARP_NET,
                        nodeIps, "Decided", "InvalidConfig: requested IP 10.0.0.7 is the InternalIP of Node node-b"),
                Arguments.of("requested = a Node's InternalIP (bgp: fine)", requesting("10.0.0.7", null, null),
                        BGP_NET, nodeIps, "Allocate", "requested=10.0.0.7"),
                Arguments.of("network unusable, no VIP", requesting(null, null, null), NO_NET, nodeIps,
                        "Decided", "ExternalNetworkUnavailable: ExternalNetwork \"net\" does not exist"),
                Arguments.of("VIP set: keep", requesting(null, VIP, "pool-a"), ARP_NET, nodeIps,
                        "Keep", "Allocated 10.0.0.1@pool-a"),
                Arguments.of("VIP set, network unusable: keep, Error", requesting(null, VIP, "pool-a"), NO_NET,
                        nodeIps, "Keep", "KeptUnusable 10.0.0.1@pool-a"),
                Arguments.of("VIP without pool: malformed, address reserved", requesting(null, VIP, null), ARP_NET,
                        nodeIps, "Malformed", "reserved=10.0.0.1"),
                Arguments.of("VIP not an address: malformed", requesting(null, "10.0.0.300", "pool-a"), ARP_NET,
                        nodeIps, "Malformed", "reserved=none"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("needs")
    void whatTheAllocatorMustDo(String name, ServiceLoadBalancer slb, NetworkResolution net, Map<Long, String> nodeIps,
            String kind, String detail) {
        AllocationNeed need = ServicePlanner.need(slb, net, nodeIps);
        assertThat(need.getClass().getSimpleName()).isEqualTo(kind);
        String actual;
        if (need instanceof AllocationNeed.Allocate a) {
            actual = "requested=" + (a.requested().isPresent()
                    ? me.loutres.juneau.ip.Ipv4.format(a.requested().getAsLong()) : "none");
            assertThat(a.pools()).containsExactly("pool-a");
        } else if (need instanceof AllocationNeed.Decided d) {
            AllocationState.Failed f = (AllocationState.Failed) d.state();
            actual = f.reason() + ": " + f.message();
        } else if (need instanceof AllocationNeed.Keep k) {
            actual = k.state().getClass().getSimpleName() + " " + k.vip() + "@" + k.pool();
        } else {
            AllocationNeed.Malformed m = (AllocationNeed.Malformed) need;
            actual = "reserved=" + (m.address().isPresent()
                    ? me.loutres.juneau.ip.Ipv4.format(m.address().getAsLong()) : "none");
            assertThat(m.message()).contains("status.");
        }
        assertThat(actual).startsWith(detail);
    }

    // ---- lifecycle and the object ----

    static Stream<Arguments> lifecycles() {
        Service managed = service();
        Service unmanaged = service();
        unmanaged.getSpec().setLoadBalancerClass("other");
        Service deleting = service();
        deleting.getMetadata().setDeletionTimestamp("2026-12-01T11:00:00Z");
        Service successor = service();
        successor.getMetadata().setUid("uid-2");
        ServiceLoadBalancer mine = slb(null);
        ServiceLoadBalancer goingWithFinalizer = slb(null);
        goingWithFinalizer.getMetadata().setDeletionTimestamp("2026-12-01T11:00:00Z");
        ServiceLoadBalancer goingWithout = slb(null);
        goingWithout.getMetadata().setDeletionTimestamp("2026-12-01T11:00:00Z");
        goingWithout.getMetadata().setFinalizers(List.of());
        return Stream.of(
                Arguments.of("new Service", managed, null, Lifecycle.RECONCILE),
                Arguments.of("existing", managed, mine, Lifecycle.RECONCILE),
                Arguments.of("Service gone", null, mine, Lifecycle.FORGET),
                Arguments.of("no longer managed", unmanaged, mine, Lifecycle.FORGET),
                Arguments.of("Service being deleted", deleting, mine, Lifecycle.FORGET),
                Arguments.of("never ours", unmanaged, null, Lifecycle.FORGET),
                Arguments.of("SLB of an earlier Service of that name", successor, mine, Lifecycle.REPLACE_STALE),
                Arguments.of("SLB being deleted, our finalizer", managed, goingWithFinalizer, Lifecycle.FINALIZE),
                Arguments.of("SLB being deleted, finalizer gone", managed, goingWithout, Lifecycle.NOTHING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lifecycles")
    void whichPathAKeyTakes(String name, Service svc, ServiceLoadBalancer slb, Lifecycle expected) {
        assertThat(ServicePlanner.lifecycle(ManagedServices.CLASSED, svc, slb)).isEqualTo(expected);
    }

    @Test
    void theShellIsCreatedOnceAndUpdatedOnlyWhenSpecFinalizerOrOwnerIsOff() {
        ServiceLoadBalancer created = ServicePlanner.shell(service(), null).orElseThrow();
        assertThat(created.getMetadata().getFinalizers()).containsExactly(JuneauConstants.FINALIZER);
        assertThat(created.getMetadata().getOwnerReferences()).singleElement().satisfies(r -> {
            assertThat(r.getUid()).isEqualTo("uid-1");
            assertThat(r.getController()).isTrue();
        });
        assertThat(created.getSpec().getExternalNetwork()).isEqualTo("net");
        assertThat(created.getSpec().getRequestedIP()).isNull();
        assertThat(ServicePlanner.shell(service(), created)).isEmpty();

        Service moved = service();
        moved.getMetadata().getAnnotations().put(JuneauConstants.ANNOTATION_REQUESTED_IP, " 10.0.0.4 ");
        assertThat(ServicePlanner.shell(moved, created)).get()
                .satisfies(s -> assertThat(s.getSpec().getRequestedIP()).isEqualTo("10.0.0.4"));

        ServiceLoadBalancer bare = ServicePlanner.shell(service(), null).orElseThrow();
        bare.setMetadata(new ObjectMetaBuilder(bare.getMetadata()).withFinalizers().withOwnerReferences(
                new OwnerReferenceBuilder().withKind("Deployment").withUid("x").withController(true).build()).build());
        ServiceLoadBalancer fixed = ServicePlanner.shell(service(), bare).orElseThrow();
        assertThat(fixed.getMetadata().getFinalizers()).containsExactly(JuneauConstants.FINALIZER);
        assertThat(fixed.getMetadata().getOwnerReferences()).extracting(r -> r.getKind())
                .containsExactly("Deployment", "Service");
        assertThat(bare.getMetadata().getFinalizers()).as("the input is not changed").isEmpty();
    }

    @Test
    void anUnresolvableNamedTargetPortIsAStandingWarning() {
        Service svc = service();
        svc.getSpec().getPorts().get(0).setTargetPort(new io.fabric8.kubernetes.api.model.IntOrString("web"));
        List<EndpointSlice> withPorts = List.of(new EndpointSliceBuilder(slices("node-a").get(0))
                .addNewPort().withName("other").withPort(8080).withProtocol("TCP").endPort().build());
        PlanInput in = new PlanInput(svc, slb(null), BGP_NET, ALLOCATED, "bgp", withPorts, null,
                NodeLiveness.unknown(), NODES, null, NOW);
        assertThat(ServicePlanner.plan(in).warnings()).singleElement().satisfies(w -> {
            assertThat(w.reason()).isEqualTo(JuneauConstants.EVENT_TARGET_PORT_NOT_FOUND);
            assertThat(w.message()).contains("http");
        });
    }
}
