package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.cli.plan.PoolCapacity;
import me.loutres.juneau.controller.reconcile.AllocationBook;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.view.YamlDocuments;
import org.junit.jupiter.api.Test;

/**
 * The controller's allocation book, {@code juneau validate}'s VIP forecast and {@code juneau plan}'s counts are fed
 * the same way (AllocatorFeed), so for the same objects they hand out and count the same addresses: a network whose
 * pool has a bad entry, a Node InternalIP inside an arp pool (written with stray whitespace), records with equal
 * creation times and one without a pool, an empty requested IP.
 */
class SameForecastTest {
    static final String STATE = """
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata: {name: pool-b}
            spec:
              advertiseMode: bgp
              addresses: ["10.1.0.0/30", "10.1.0.8/31"]
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata: {name: pool-bad}
            spec:
              advertiseMode: bgp
              addresses: ["10.3.0.0/30", "10.3.9.0/99"]
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata: {name: broken}
            spec: {type: bgp, addressPools: [pool-bad]}
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata: {name: pool-l2}
            spec:
              advertiseMode: arp
              addresses: ["10.2.0.1-10.2.0.5"]
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata: {name: public}
            spec: {type: bgp, addressPools: [pool-b]}
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata: {name: l2}
            spec: {type: arp, addressPools: [pool-l2]}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node-a}
            status:
              addresses: [{type: InternalIP, address: " 10.2.0.1 "}, {type: InternalIP, address: "fd00::1"}]
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ServiceLoadBalancer
            metadata: {name: twin-b, namespace: b, creationTimestamp: "2026-11-01T00:00:00Z"}
            spec: {serviceRef: {name: twin-b}, externalNetwork: public}
            status: {vip: 10.1.0.1, addressPool: pool-b}
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ServiceLoadBalancer
            metadata: {name: twin-a, namespace: a, creationTimestamp: "2026-11-01T00:00:00Z"}
            spec: {serviceRef: {name: twin-a}, externalNetwork: public}
            status: {vip: 10.1.0.1, addressPool: pool-b}
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ServiceLoadBalancer
            metadata: {name: no-pool, namespace: a, creationTimestamp: "2026-11-02T00:00:00Z"}
            spec: {serviceRef: {name: no-pool}, externalNetwork: l2}
            status: {vip: 10.2.0.2}
            """;

    static String service(String ns, String name, String network, String requested) {
        return "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + name + "\n  namespace: " + ns
                + "\n  annotations:\n    " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + ": " + network + "\n"
                + (requested == null ? "" : "    " + JuneauConstants.ANNOTATION_REQUESTED_IP + ": \"" + requested + "\"\n")
                + "spec:\n  type: LoadBalancer\n  loadBalancerClass: " + JuneauConstants.LOAD_BALANCER_CLASS
                + "\n  externalTrafficPolicy: Local\n  ports: [{port: 80}]\n";
    }

    static final List<String> SERVICES = List.of(
            service("c", "s1", "public", null),
            service("c", "s2", "public", null),
            service("c", "s3", "public", null),
            service("c", "s4", "public", null),
            service("c", "arp1", "l2", null),
            service("c", "arp2", "l2", " "),
            service("c", "arp3", "l2", "10.2.0.5"),
            service("c", "arp4", "l2", null),
            service("c", "on-broken", "broken", null));

    static List<HasMetadata> objects(String yaml) throws Exception {
        List<HasMetadata> out = new ArrayList<>();
        for (YamlDocuments.Document d : YamlDocuments.parse(Path.of("state.yaml"), yaml)) {
            out.addAll(ClusterStateFiles.objectsOf(d));
        }
        return out;
    }

    /** The controller: the allocation book fed from the caches, then one allocation per Service in order. */
    static Map<String, String> controller(SnapshotClusterView view, List<Service> services) {
        AllocationBook book = new AllocationBook();
        view.addressPools().forEach(book::syncPool);
        book.syncNodes(view.nodes());
        // as AllocationRestore does at the start of a term
        book.restore(AllocatorFeed.records(view.serviceLoadBalancers(), view.addressPools()).records());
        Map<String, String> vips = new LinkedHashMap<>();
        for (Service s : services) {
            String network = s.getMetadata().getAnnotations().get(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
            String requested = s.getMetadata().getAnnotations().get(JuneauConstants.ANNOTATION_REQUESTED_IP);
            NetworkResolution resolution = NetworkResolver.resolve(network,
                    view.externalNetwork(network).orElse(null), n -> view.addressPool(n).orElse(null));
            if (!(resolution instanceof NetworkResolution.Usable usable)) {
                vips.put(s.getMetadata().getName(), null);
                continue;
            }
            OptionalLong ip = requested == null || requested.isBlank() ? OptionalLong.empty()
                    : OptionalLong.of(Ipv4.parse(requested.trim()));
            AllocationResult r = book.allocate(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                    usable.pools().stream().map(p -> p.getMetadata().getName()).toList(), ip);
            vips.put(s.getMetadata().getName(), r instanceof AllocationResult.Allocated a ? Ipv4.format(a.address()) : null);
        }
        return vips;
    }

    /** validate: the VIP forecast of each accepted Service. */
    static Map<String, String> validate(SnapshotClusterView view, List<Service> services) {
        VipSimulation simulation = new VipSimulation();
        Map<String, String> vips = new LinkedHashMap<>();
        SnapshotClusterView current = view;
        for (Service s : services) {
            current = current.with(s);
            vips.put(s.getMetadata().getName(), simulation.allocate(s, current).vip());
        }
        return vips;
    }

    /**
     * Not only the same address: the same phase and reason as the controller's status. A requested Node InternalIP
     * can never be freed, so the controller says Error/InvalidConfig (docs/phases-and-conditions.md); a requested
     * address another Service holds may be released, so Pending/RequestedIPInUse; a full pool Pending/PoolExhausted.
     */
    @Test
    void validateForecastsTheControllersPhaseAndReason() throws Exception {
        SnapshotClusterView view = new SnapshotClusterView(objects(STATE));
        List<Service> services = List.of((Service) objects(service("d", "on-node-ip", "l2", "10.2.0.1")).get(0),
                (Service) objects(service("d", "on-held", "public", "10.1.0.1")).get(0));
        List<me.loutres.juneau.status.AllocationState> byController = new ArrayList<>();
        AllocationBook book = new AllocationBook();
        view.addressPools().forEach(book::syncPool);
        book.syncNodes(view.nodes());
        book.restore(AllocatorFeed.records(view.serviceLoadBalancers(), view.addressPools()).records());
        VipSimulation simulation = new VipSimulation();
        SnapshotClusterView current = view;
        for (Service s : services) {
            String network = s.getMetadata().getAnnotations().get(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
            NetworkResolution.Usable usable = (NetworkResolution.Usable) NetworkResolver.resolve(network,
                    view.externalNetwork(network).orElse(null), n -> view.addressPool(n).orElse(null));
            AllocationResult r = book.allocate(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                    usable.pools().stream().map(p -> p.getMetadata().getName()).toList(), OptionalLong.of(Ipv4.parse(
                            s.getMetadata().getAnnotations().get(JuneauConstants.ANNOTATION_REQUESTED_IP))));
            me.loutres.juneau.status.AllocationState state = me.loutres.juneau.status.AllocationState.of(r, network);
            current = current.with(s);
            Outcome.VipForecast f = simulation.allocate(s, current);
            if (state instanceof me.loutres.juneau.status.AllocationState.Failed failed) {
                assertThat(f.phase()).isEqualTo(JuneauConstants.PHASE_ERROR);
                assertThat(f.reason()).isEqualTo(failed.reason());
                assertThat(f.message()).isEqualTo(failed.message());
            } else {
                me.loutres.juneau.status.AllocationState.Pending pending =
                        (me.loutres.juneau.status.AllocationState.Pending) state;
                assertThat(f.phase()).isEqualTo(JuneauConstants.PHASE_PENDING);
                assertThat(f.reason()).isEqualTo(pending.reason());
                assertThat(f.message()).isEqualTo(pending.message());
            }
            byController.add(state);
        }
        assertThat(byController.get(0)).isInstanceOfSatisfying(me.loutres.juneau.status.AllocationState.Failed.class,
                f -> assertThat(f.reason()).isEqualTo(JuneauConstants.REASON_INVALID_CONFIG));
        assertThat(byController.get(1)).isInstanceOfSatisfying(me.loutres.juneau.status.AllocationState.Pending.class,
                p -> assertThat(p.reason()).isEqualTo(JuneauConstants.REASON_REQUESTED_IP_IN_USE));
    }

    @Test
    void controllerValidateAndPlanForecastTheSameAddresses() throws Exception {
        List<HasMetadata> state = objects(STATE);
        SnapshotClusterView view = new SnapshotClusterView(state);
        List<Service> services = new ArrayList<>();
        for (String s : SERVICES) {
            services.add((Service) objects(s).get(0));
        }

        Map<String, String> byController = controller(view, services);
        Map<String, String> byValidate = validate(view, services);
        assertThat(byValidate).isEqualTo(byController);
        // the expected addresses, spelled out: the older twin (a/twin-a) keeps 10.1.0.1, 10.2.0.1 is node-a's
        // InternalIP, 10.2.0.2 stays reserved for the status without a pool, a network with a bad pool entry hands
        // out nothing
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("s1", "10.1.0.2");
        expected.put("s2", "10.1.0.8");
        expected.put("s3", "10.1.0.9");
        expected.put("s4", null);
        expected.put("arp1", "10.2.0.3");
        expected.put("arp2", "10.2.0.4");
        expected.put("arp3", "10.2.0.5");
        expected.put("arp4", null);
        expected.put("on-broken", null);
        assertThat(byController).isEqualTo(expected);

        // plan counts what the controller holds: before, and with the new VIPs written into statuses
        // (the bad entry of pool-bad offers nothing; its /30 counts 2)
        assertThat(plan(state)).containsExactly("pool-b 4/1", "pool-bad 2/0", "pool-l2 4/1");
        List<HasMetadata> after = new ArrayList<>(state);
        byController.forEach((name, vip) -> {
            if (vip != null) {
                after.add(slb("c", name, vip, vip.startsWith("10.1.") ? "pool-b" : "pool-l2"));
            }
        });
        assertThat(plan(after)).containsExactly("pool-b 4/4", "pool-bad 2/0", "pool-l2 4/4");
    }

    /**
     * What ValidateAgreesMockTest found: a Node's podCIDR over an arp pool stored before the Node (admission checks
     * only the entries a write adds). The controller never hands those addresses out (docs/allocation.md, "Pools
     * overlapping the cluster's ranges"), so its Service was Pending (PoolExhausted) while validate forecast one of
     * them; validate now keeps them out too, whether the Node is in the cluster state or comes with the manifests.
     */
    @Test
    void aNodesPodCidrIsNeverForecast() throws Exception {
        String pool = """
                apiVersion: juneau.loutres.me/v1alpha1
                kind: AddressPool
                metadata: {name: pool-l2}
                spec: {advertiseMode: arp, addresses: ["10.5.0.1-10.5.0.3"]}
                ---
                apiVersion: juneau.loutres.me/v1alpha1
                kind: ExternalNetwork
                metadata: {name: l2}
                spec: {type: arp, addressPools: [pool-l2]}
                """;
        String node = """
                apiVersion: v1
                kind: Node
                metadata: {name: node-a}
                spec: {podCIDRs: ["10.5.0.0/31"]}
                status: {addresses: [{type: InternalIP, address: "10.5.0.3"}]}
                """;
        List<Service> services = List.of((Service) objects(service("c", "a", "l2", null)).get(0),
                (Service) objects(service("c", "b", "l2", null)).get(0));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("a", "10.5.0.2");
        expected.put("b", null);
        assertThat(validate(new SnapshotClusterView(objects(pool + "---\n" + node)), services)).isEqualTo(expected);

        // the Node arrives after the first forecast: learnt as the controller's informer learns it
        VipSimulation simulation = new VipSimulation();
        SnapshotClusterView view = new SnapshotClusterView(objects(pool));
        assertThat(simulation.allocate(services.get(0), view.with(services.get(0))).vip()).isEqualTo("10.5.0.1");
        HasMetadata n = objects(node).get(0);
        view.add(n);
        simulation.accepted(n, view);
        Outcome.VipForecast b = simulation.allocate(services.get(1), view.with(services.get(1)));
        assertThat(b.vip()).as("10.5.0.1 stays a's, 10.5.0.0-1 is the podCIDR, 10.5.0.3 the InternalIP").isEqualTo("10.5.0.2");
    }

    /** pool capacity/used, as plan prints them. */
    static List<String> plan(List<HasMetadata> objects) {
        return PoolCapacity.rows(objects).stream().map(r -> r.pool() + " " + r.capacity() + "/" + r.used()).toList();
    }

    static ServiceLoadBalancer slb(String ns, String name, String vip, String pool) {
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        s.getMetadata().setNamespace(ns);
        s.getMetadata().setName(name);
        s.getMetadata().setCreationTimestamp("2026-11-03T00:00:00Z");
        s.setStatus(new me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus());
        s.getStatus().setVip(vip);
        s.getStatus().setAddressPool(pool);
        return s;
    }
}
