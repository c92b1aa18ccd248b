package me.loutres.juneau.plan;

import me.loutres.juneau.policy.ManagedServices;
import static me.loutres.juneau.plan.ServicePlannerTest.ALLOCATED;
import static me.loutres.juneau.plan.ServicePlannerTest.ARP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.BGP_NET;
import static me.loutres.juneau.plan.ServicePlannerTest.NODES;
import static me.loutres.juneau.plan.ServicePlannerTest.NOW;
import static me.loutres.juneau.plan.ServicePlannerTest.VIP;
import static me.loutres.juneau.plan.ServicePlannerTest.ours;
import static me.loutres.juneau.plan.ServicePlannerTest.service;
import static me.loutres.juneau.plan.ServicePlannerTest.slb;
import static me.loutres.juneau.plan.ServicePlannerTest.slices;
import static me.loutres.juneau.plan.ServicePlannerTest.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.status.AllocationState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12 item 1: every public entry of the pure planner (and the network resolution it is fed) is total. Each row
 * is a damaged input kube-apiserver would normally never hand over (stored around admission, a restore, a fuzzed
 * read, a list the cache builds itself) and the outcome decided for it: a lifecycle, a plan whose status names the
 * field and value, or "leave it alone". Never an exception.
 */
class ServicePlannerDamagedInputTest {

    /** One damaged input: the call, and what it must decide. */
    record Row(String name, Supplier<Object> call, Consumer<Object> expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Arguments row(String name, Supplier<Object> call, Consumer<Object> expect) {
        return Arguments.of(new Row(name, call, expect));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"lifecycles", "shells", "needs", "plans", "resolutions"})
    void aDamagedInputGetsItsDecidedOutcomeAndNeverAnException(Row row) {
        AtomicReference<Object> out = new AtomicReference<>();
        assertThatCode(() -> out.set(row.call().get())).as(row.name()).doesNotThrowAnyException();
        row.expect().accept(out.get());
    }

    // ---- lifecycle ----

    static Stream<Arguments> lifecycles() {
        return Stream.of(
                row("no Service, no SLB", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, null, null), is(Lifecycle.FORGET)),
                row("Service without metadata: left alone", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, noMeta(service()), slb(null)),
                        is(Lifecycle.NOTHING)),
                row("Service without spec: not managed", () -> {
                    Service s = service();
                    s.setSpec(null);
                    return ServicePlanner.lifecycle(ManagedServices.CLASSED, s, slb(null));
                }, is(Lifecycle.FORGET)),
                row("SLB without metadata: left alone", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, service(), noMeta(slb(null))),
                        is(Lifecycle.NOTHING)),
                row("ownerReferences [null]", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, service(), owners(slb(null), (OwnerReference) null)),
                        is(Lifecycle.RECONCILE)),
                row("controller ownerReference without uid", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, service(),
                        owners(slb(null), controllerRef(null))), is(Lifecycle.RECONCILE)),
                row("controller ownerReference with an empty uid", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, service(),
                        owners(slb(null), controllerRef(""))), is(Lifecycle.RECONCILE)),
                row("ownerReference with every field null", () -> ServicePlanner.lifecycle(ManagedServices.CLASSED, service(),
                        owners(slb(null), new OwnerReference())), is(Lifecycle.RECONCILE)),
                row("being deleted, finalizers [null]", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.getMetadata().setDeletionTimestamp("2026-12-01T11:00:00Z");
                    s.getMetadata().setFinalizers(Arrays.asList((String) null));
                    return ServicePlanner.lifecycle(ManagedServices.CLASSED, service(), s);
                }, is(Lifecycle.NOTHING)),
                row("Service annotations null", () -> {
                    Service s = service();
                    s.getMetadata().setAnnotations(null);
                    return ServicePlanner.lifecycle(ManagedServices.CLASSED, s, null);
                }, is(Lifecycle.RECONCILE)));
    }

    // ---- shell ----

    static Stream<Arguments> shells() {
        return Stream.of(
                row("Service without metadata: nothing to build", () -> ServicePlanner.shell(noMeta(service()), null),
                        is(java.util.Optional.empty())),
                row("SLB without metadata: rebuilt with finalizer and owner", () -> ServicePlanner.shell(service(),
                        noMeta(slb(null))), o -> assertThat(shellOf(o)).satisfies(s -> {
                            assertThat(s.getMetadata().getFinalizers()).contains(JuneauConstants.FINALIZER);
                            assertThat(ServicePlanner.controllerUid(s)).isEqualTo("uid-1");
                        })),
                row("SLB without spec: spec from the annotations", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.setSpec(null);
                    return ServicePlanner.shell(service(), s);
                }, o -> assertThat(shellOf(o).getSpec().getExternalNetwork()).isEqualTo("net")),
                row("controller ownerReference without uid: replaced by one naming the Service", () ->
                        ServicePlanner.shell(service(), owners(slb(null), controllerRef(null))),
                        o -> assertThat(shellOf(o).getMetadata().getOwnerReferences())
                                .filteredOn(r -> Boolean.TRUE.equals(r.getController()))
                                .singleElement().satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-1"))),
                row("ownerReferences [null]: kept, ours added", () -> ServicePlanner.shell(service(),
                        owners(slb(null), (OwnerReference) null)), o -> assertThat(ServicePlanner.controllerUid(shellOf(o)))
                                .isEqualTo("uid-1")),
                row("annotation values null", () -> {
                    Service s = service();
                    s.getMetadata().getAnnotations().put(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, null);
                    return ServicePlanner.shell(s, null);
                }, o -> assertThat(shellOf(o).getSpec().getExternalNetwork()).isNull()),
                row("finalizers [null]: ours added", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.getMetadata().setFinalizers(new ArrayList<>(Arrays.asList((String) null)));
                    return ServicePlanner.shell(service(), s);
                }, o -> assertThat(shellOf(o).getMetadata().getFinalizers()).contains(JuneauConstants.FINALIZER)));
    }

    // ---- need ----

    static Stream<Arguments> needs() {
        return Stream.of(
                row("status.vip empty: none, allocate", () -> ServicePlanner.need(withStatus("", "pool-a"), ARP_NET, Map.of()),
                        kind(AllocationNeed.Allocate.class)),
                row("status.vip unparsable: malformed naming it", () -> ServicePlanner.need(withStatus("10.0.0/24", "pool-a"),
                        ARP_NET, Map.of()), malformed("status.vip is \"10.0.0/24\"")),
                row("status.vip without pool: malformed, reserved", () -> ServicePlanner.need(withStatus(VIP, " "),
                        ARP_NET, Map.of()), malformed("has no status.addressPool")),
                row("no spec: allocate without a requested IP", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.setSpec(null);
                    return ServicePlanner.need(s, ARP_NET, null);
                }, kind(AllocationNeed.Allocate.class)),
                row("SLB without metadata", () -> ServicePlanner.need(noMeta(slb(null)), BGP_NET, Map.of()),
                        kind(AllocationNeed.Allocate.class)),
                row("no resolution: network unavailable", () -> ServicePlanner.need(slb(null), null, Map.of()),
                        decided(JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE, "not resolved")),
                row("usable network holding a pool without metadata", () -> {
                    AddressPool p = new AddressPool();
                    p.setMetadata(null);
                    return ServicePlanner.need(slb(null), new NetworkResolution.Usable("net", "bgp", List.of(p)), Map.of());
                }, o -> assertThat(((AllocationNeed.Allocate) o).pools()).isEmpty()),
                row("SLB the shared reader refuses: malformed, its VIP reserved", () -> ServicePlanner.unreadable(
                        withStatus(VIP, "pool-a"), "status.conditions[0]: null is not a valid list entry"),
                        o -> assertThat(o).isInstanceOfSatisfying(AllocationNeed.Malformed.class, m -> {
                            assertThat(m.message()).contains("status.conditions[0]: null").contains("VIP 10.0.0.1");
                            assertThat(m.address()).hasValue(me.loutres.juneau.ip.Ipv4.parse(VIP));
                        })),
                row("SLB the shared reader refuses, VIP unparsable: nothing reserved", () -> ServicePlanner.unreadable(
                        withStatus("x", "pool-a"), "p"), o -> assertThat(((AllocationNeed.Malformed) o).address()).isEmpty()),
                row("requested IP unparsable: InvalidConfig naming it", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.getSpec().setRequestedIP("10.0.0.1/32");
                    return ServicePlanner.need(s, ARP_NET, null);
                }, decided(JuneauConstants.REASON_INVALID_CONFIG, "is \"10.0.0.1/32\"")));
    }

    // ---- plan ----

    static Stream<Arguments> plans() {
        return Stream.of(
                row("slices with a null entry", () -> plan(in(service(), slb(null), ALLOCATED, Arrays.asList(null,
                        slices("node-a").get(0)), null)), phase(JuneauConstants.PHASE_READY)),
                row("slice with null endpoints, ports [null], endpoint [null]", () -> {
                    EndpointSlice s = slices("node-a").get(0);
                    s.setPorts(Arrays.asList((EndpointPort) null));
                    List<Endpoint> eps = new ArrayList<>(s.getEndpoints());
                    eps.add(null);
                    s.setEndpoints(eps);
                    EndpointSlice empty = slices().get(0);
                    empty.setEndpoints(null);
                    return plan(in(service(), slb(null), ALLOCATED, List.of(s, empty), null));
                }, phase(JuneauConstants.PHASE_READY)),
                row("endpoint without conditions, addresses or node", () -> {
                    EndpointSlice s = slices("node-a").get(0);
                    Endpoint e = new Endpoint();
                    s.setEndpoints(List.of(e));
                    return plan(in(service(), slb(null), ALLOCATED, List.of(s), null));
                }, phase(JuneauConstants.PHASE_ALLOCATED)),
                row("Service ports [null] and a port with null fields", () -> {
                    Service svc = service();
                    svc.getSpec().setPorts(Arrays.asList(null, new ServicePort()));
                    return plan(in(svc, slb(null), ALLOCATED, slices("node-a"), null));
                }, phase(JuneauConstants.PHASE_READY)),
                row("Service without spec", () -> {
                    Service svc = service();
                    svc.setSpec(null);
                    return plan(in(svc, slb(null), ALLOCATED, slices("node-a"), null));
                }, o -> assertThat(((ServicePlan) o).status().getVip()).isEqualTo(VIP)),
                row("previous conditions [null] and a condition with null fields", () -> {
                    ServiceLoadBalancerStatus st = status("Ready", VIP, "node-a");
                    st.setConditions(Arrays.asList(null, new Condition()));
                    return plan(in(service(), slb(st), ALLOCATED, slices("node-a"), ours("node-a")));
                }, phase(JuneauConstants.PHASE_READY)),
                row("previous advertisingNodes and ports [null]", () -> {
                    ServiceLoadBalancerStatus st = status("Ready", VIP, "node-a");
                    st.setAdvertisingNodes(Arrays.asList((String) null));
                    st.setPorts(Arrays.asList(null, null));
                    return plan(in(service(), slb(st), ALLOCATED, slices("node-a"), ours("node-a")));
                }, phase(JuneauConstants.PHASE_READY)),
                row("SLB without metadata", () -> plan(in(service(), noMeta(slb(null)), ALLOCATED, slices("node-a"), null)),
                        o -> assertThat(((ServicePlan) o).status().getVip()).isEqualTo(VIP)),
                row("SLB without spec", () -> {
                    ServiceLoadBalancer s = slb(null);
                    s.setSpec(null);
                    return plan(in(service(), s, ALLOCATED, slices("node-a"), null));
                }, o -> assertThat(((ServicePlan) o).status().getVip()).isEqualTo(VIP)),
                row("ingress [null, {}]", () -> {
                    Service svc = service();
                    svc.setStatus(new io.fabric8.kubernetes.api.model.ServiceStatusBuilder().withNewLoadBalancer()
                            .withIngress(Arrays.asList(null, new LoadBalancerIngress())).endLoadBalancer().build());
                    return plan(in(svc, slb(null), ALLOCATED, slices("node-a"), null));
                }, o -> assertThat(((ServicePlan) o).ingressChanged()).isTrue()),
                row("existing advertisement without metadata or spec", () -> {
                    ARPAdvertisement a = new ARPAdvertisement();
                    a.setMetadata(null);
                    a.setSpec(null);
                    return plan(in(service(), slb(null), ALLOCATED, slices("node-a"), a));
                }, o -> assertThat(((ServicePlan) o).status().getConditions()).extracting(Condition::getReason)
                        .contains(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT)),
                row("existing advertisement of ours with a spec of nulls", () -> {
                    ARPAdvertisement a = ours("node-a");
                    a.setSpec(new me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec());
                    return plan(in(service(), slb(null), ALLOCATED, slices("node-a"), a));
                }, o -> assertThat(((ServicePlan) o).arp()).isInstanceOf(ArpAction.Replace.class)),
                row("Service without metadata", () -> plan(in(noMeta(service()), slb(null), ALLOCATED,
                        slices("node-a"), null)), phase(JuneauConstants.PHASE_READY)),
                row("node names with a null", () -> {
                    Set<String> nodes = new HashSet<>(NODES);
                    nodes.add(null);
                    return ServicePlanner.plan(new PlanInput(service(), slb(null), ARP_NET, ALLOCATED, "arp",
                            slices("node-a"), null, NodeLiveness.unknown(), nodes, null, NOW));
                }, phase(JuneauConstants.PHASE_READY)));
    }

    // ---- network resolution (what need and plan are fed) ----

    static Stream<Arguments> resolutions() {
        return Stream.of(
                row("network without spec", () -> resolve(network(null), pool("pool-a", "bgp", "10.0.0.0/24")),
                        unavailable("spec.type \"null\"")),
                row("network type unknown", () -> resolve(network("static", "pool-a"), pool("pool-a", "bgp", "10.0.0.0/24")),
                        unavailable("spec.type \"static\"; it must be bgp or arp")),
                row("network listing no pools", () -> resolve(network("bgp"), pool("pool-a", "bgp", "10.0.0.0/24")),
                        unavailable("lists no AddressPools")),
                row("addressPools [null]", () -> resolve(network("bgp", (String) null), pool("pool-a", "bgp", "10.0.0.0/24")),
                        unavailable("spec.addressPools[0] is null")),
                row("addressPools [\"\"]", () -> resolve(network("bgp", " "), pool("pool-a", "bgp", "10.0.0.0/24")),
                        unavailable("spec.addressPools[0] is \" \"")),
                row("addressPools listed twice", () -> resolve(network("bgp", "pool-a", "pool-a"),
                        pool("pool-a", "bgp", "10.0.0.0/24")), unavailable("spec.addressPools[1] \"pool-a\" is already listed at spec.addressPools[0]")),
                row("pool without spec", () -> {
                    AddressPool p = pool("pool-a", "bgp");
                    p.setSpec(null);
                    return resolve(network("bgp", "pool-a"), p);
                }, unavailable("advertiseMode null")),
                row("pool entries [null]", () -> resolve(network("bgp", "pool-a"), pool("pool-a", "bgp", (String) null)),
                        unavailable("AddressPool \"pool-a\" has an invalid entry: an entry is empty")),
                row("pool entry not a CIDR", () -> resolve(network("bgp", "pool-a"), pool("pool-a", "bgp", "10.0.0.0/33")),
                        unavailable("10.0.0.0/33")),
                row("pool entry a reversed range", () -> resolve(network("arp", "pool-a"),
                        pool("pool-a", "arp", "10.0.0.9-10.0.0.1")), unavailable("10.0.0.9-10.0.0.1")),
                row("network the shared reader refuses", () -> NetworkResolver.resolve("net", network("bgp", "pool-a"),
                        name -> pool("pool-a", "bgp", "10.0.0.0/24"), o -> o instanceof ExternalNetwork
                                ? java.util.Optional.of("metadata.finalizers[0]: null is not a valid list entry")
                                : java.util.Optional.empty()),
                        unavailable("ExternalNetwork \"net\" cannot be read: metadata.finalizers[0]: null")),
                row("pool the shared reader refuses", () -> NetworkResolver.resolve("net", network("bgp", "pool-a"),
                        name -> pool("pool-a", "bgp", "10.0.0.0/24"), o -> o instanceof AddressPool
                                ? java.util.Optional.of("status.conditions[0]: null is not a valid list entry")
                                : java.util.Optional.empty()),
                        unavailable("AddressPool \"pool-a\" cannot be read: status.conditions[0]: null")),
                row("pool addresses null", () -> {
                    AddressPool p = pool("pool-a", "bgp");
                    p.getSpec().setAddresses(null);
                    return resolve(network("bgp", "pool-a"), p);
                }, unavailable("has no addresses")));
    }

    // ---- helpers ----

    static ServicePlan plan(PlanInput in) {
        return ServicePlanner.plan(in);
    }

    static PlanInput in(Service svc, ServiceLoadBalancer slb, AllocationState allocation, List<EndpointSlice> slices,
            ARPAdvertisement existing) {
        return new PlanInput(svc, slb, ARP_NET, allocation, "arp", slices, existing, NodeLiveness.unknown(), NODES,
                null, NOW);
    }

    static <T extends io.fabric8.kubernetes.api.model.HasMetadata> T noMeta(T o) {
        o.setMetadata(null);
        return o;
    }

    static ServiceLoadBalancer owners(ServiceLoadBalancer s, OwnerReference... refs) {
        s.getMetadata().setOwnerReferences(new ArrayList<>(Arrays.asList(refs)));
        return s;
    }

    static OwnerReference controllerRef(String uid) {
        return new OwnerReferenceBuilder().withApiVersion("v1").withKind("Service").withName("web").withUid(uid)
                .withController(true).build();
    }

    static ServiceLoadBalancer withStatus(String vip, String pool) {
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        st.setAddressPool(pool);
        return slb(st);
    }

    static ExternalNetwork network(String type, String... pools) {
        ExternalNetwork n = new ExternalNetwork();
        n.getMetadata().setName("net");
        n.setSpec(type == null ? null : new ExternalNetworkSpec(type, Arrays.asList(pools)));
        return n;
    }

    static AddressPool pool(String name, String mode, String... entries) {
        AddressPool p = new AddressPool();
        p.getMetadata().setName(name);
        p.setSpec(new AddressPoolSpec(mode, Arrays.asList(entries)));
        return p;
    }

    static NetworkResolution resolve(ExternalNetwork n, AddressPool p) {
        return NetworkResolver.resolve("net", n, name -> p.getMetadata().getName().equals(name) ? p : null);
    }

    static ServiceLoadBalancer shellOf(Object o) {
        return ((java.util.Optional<?>) o).map(ServiceLoadBalancer.class::cast).orElseThrow();
    }

    static Consumer<Object> is(Object expected) {
        return o -> assertThat(o).isEqualTo(expected);
    }

    static Consumer<Object> kind(Class<?> type) {
        return o -> assertThat(o).isInstanceOf(type);
    }

    static Consumer<Object> malformed(String text) {
        return o -> assertThat(o).isInstanceOfSatisfying(AllocationNeed.Malformed.class,
                m -> assertThat(m.message()).contains(text));
    }

    static Consumer<Object> decided(String reason, String text) {
        return o -> assertThat(o).isInstanceOfSatisfying(AllocationNeed.Decided.class, d -> {
            AllocationState.Failed f = (AllocationState.Failed) d.state();
            assertThat(f.reason()).isEqualTo(reason);
            assertThat(f.message()).contains(text);
        });
    }

    static Consumer<Object> phase(String phase) {
        return o -> assertThat(((ServicePlan) o).status().getPhase()).isEqualTo(phase);
    }

    static Consumer<Object> unavailable(String text) {
        return o -> assertThat(o).isInstanceOfSatisfying(NetworkResolution.Unavailable.class,
                u -> assertThat(u.message()).contains(text).doesNotContain("Exception"));
    }
}
