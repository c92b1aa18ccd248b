package me.loutres.juneau.plan;

import me.loutres.juneau.policy.ManagedServices;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
import me.loutres.juneau.view.KubeObjects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 12 item 1, as a property: the objects of one reconcile (Service, ServiceLoadBalancer with a full status,
 * EndpointSlice, ARPAdvertisement, ExternalNetwork, AddressPool), each damaged the way a store that does not validate
 * would hand them to a typed informer — fields set to null or removed, null entries in lists, strings emptied or
 * made unparsable (types kept: a wrong type never reaches a typed object) — go through lifecycle, shell, the network
 * resolution, need and plan without an exception, and the plan keeps its promises: a known phase, both conditions,
 * and a VIP only where the allocation has one.
 */
class ServicePlannerPropertiesTest {
    static final Set<String> PHASES = Set.of(JuneauConstants.PHASE_PENDING, JuneauConstants.PHASE_ALLOCATED,
            JuneauConstants.PHASE_READY, JuneauConstants.PHASE_DEGRADED, JuneauConstants.PHASE_ERROR);
    static final List<String> TEXTS = List.of("", " ", "10.0.0.300", "10.0.0.0/33", "10.0.0.9-10.0.0.1", "x");

    /** One damage: which object, which node of its tree (by position, modulo its size), and what is done to it. */
    record Damage(int object, int node, int op, int text) {
    }

    @Provide
    Arbitrary<List<Damage>> damages() {
        return Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 10_000),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, TEXTS.size() - 1))
                .as(Damage::new).list().ofMinSize(1).ofMaxSize(6);
    }

    @Property(tries = 400)
    void damagedObjectsAreDecidedNeverThrown(@ForAll("damages") List<Damage> damages) {
        List<JsonNode> trees = new ArrayList<>();
        for (Object o : List.of(ServicePlannerTest.service(VIP), fullSlb(), ServicePlannerTest.slices("node-a").get(0),
                ServicePlannerTest.ours("node-a"), network(), pool())) {
            trees.add(KubeObjects.mapper().valueToTree(o));
        }
        for (Damage d : damages) {
            damage(trees.get(d.object()), d);
        }
        Service svc = as(trees.get(0), Service.class);
        ServiceLoadBalancer slb = as(trees.get(1), ServiceLoadBalancer.class);
        EndpointSlice slice = as(trees.get(2), EndpointSlice.class);
        ARPAdvertisement arp = as(trees.get(3), ARPAdvertisement.class);
        ExternalNetwork net = as(trees.get(4), ExternalNetwork.class);
        AddressPool pool = as(trees.get(5), AddressPool.class);

        Lifecycle lifecycle = ServicePlanner.lifecycle(ManagedServices.CLASSED, svc, slb);
        assertThat(lifecycle).isNotNull();
        Optional<ServiceLoadBalancer> shell = ServicePlanner.shell(svc, slb);
        ServiceLoadBalancer current = shell.orElse(slb);
        NetworkResolution resolution = NetworkResolver.resolve("net", net, name -> name != null
                && pool.getMetadata() != null && name.equals(pool.getMetadata().getName()) ? pool : null);
        AllocationNeed need = ServicePlanner.need(current, resolution, Map.of(1L, "node-a"));
        AllocationState allocation;
        if (need instanceof AllocationNeed.Malformed) {
            return; // the controller leaves such an object alone (docs/phases-and-conditions.md): nothing is planned for it
        } else if (need instanceof AllocationNeed.Keep k) {
            allocation = k.state();
        } else if (need instanceof AllocationNeed.Decided dec) {
            allocation = dec.state();
        } else {
            allocation = new AllocationState.Allocated("10.0.0.2", "pool-a");
        }
        ServicePlan plan = ServicePlanner.plan(new PlanInput(svc, current, resolution, allocation, "arp",
                java.util.Arrays.asList(slice, null), arp, NodeLiveness.unknown(), ServicePlannerTest.NODES, null,
                ServicePlannerTest.NOW));
        ServiceLoadBalancerStatus st = plan.status();
        assertThat(st.getPhase()).isIn(PHASES);
        assertThat(st.getConditions()).extracting(c -> c.getType())
                .contains(JuneauConstants.CONDITION_ALLOCATED, JuneauConstants.CONDITION_AVAILABLE);
        boolean hasVip = allocation instanceof AllocationState.Allocated
                || allocation instanceof AllocationState.KeptUnusable;
        assertThat(st.getVip() != null).isEqualTo(hasVip);
    }

    static final String VIP = ServicePlannerTest.VIP;

    static ServiceLoadBalancer fullSlb() {
        ServiceLoadBalancerStatus st = ServicePlannerTest.status("Ready", VIP, "node-a");
        ServiceLoadBalancer s = ServicePlannerTest.slb(st);
        // the plan of a clean copy gives the status every field (ports, nodes, conditions, summary)
        ServicePlan p = ServicePlanner.plan(new PlanInput(ServicePlannerTest.service(VIP), s,
                ServicePlannerTest.ARP_NET, ServicePlannerTest.ALLOCATED, "arp", ServicePlannerTest.slices("node-a"),
                ServicePlannerTest.ours("node-a"), NodeLiveness.unknown(), ServicePlannerTest.NODES, null,
                ServicePlannerTest.NOW));
        s.setStatus(p.status());
        return s;
    }

    static ExternalNetwork network() {
        ExternalNetwork n = new ExternalNetwork();
        n.getMetadata().setName("net");
        n.setSpec(new ExternalNetworkSpec("arp", List.of("pool-a")));
        return n;
    }

    static AddressPool pool() {
        AddressPool p = new AddressPool();
        p.getMetadata().setName("pool-a");
        p.setSpec(new AddressPoolSpec("arp", List.of("10.0.0.1-10.0.0.9")));
        return p;
    }

    static <T> T as(JsonNode tree, Class<T> type) {
        try {
            return KubeObjects.mapper().treeToValue(tree, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("a damage changed a type, which it must not: " + e.getMessage(), e);
        }
    }

    /** Applies one damage in place to the node found by a walk of the tree. */
    static void damage(JsonNode root, Damage d) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode at = containers.get(d.node() % containers.size());
        if (at instanceof ArrayNode a) {
            if (d.op() % 2 == 0 || a.isEmpty()) {
                a.addNull();
            } else {
                a.set(d.node() % a.size(), a.nullNode());
            }
            return;
        }
        ObjectNode o = (ObjectNode) at;
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        if (names.isEmpty()) {
            return;
        }
        String name = names.get(d.node() % names.size());
        switch (d.op()) {
            case 0 -> o.putNull(name);
            case 1 -> o.remove(name);
            default -> {
                if (o.get(name).isTextual()) {
                    o.put(name, TEXTS.get(d.text()));
                } else {
                    o.putNull(name);
                }
            }
        }
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.forEach(child -> collect(child, out));
        }
    }
}
