package me.loutres.juneau.cli.validate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.selection.NodeEligibility;
import java.util.Map;
import java.util.Set;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.policy.NetworkAccess;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.status.AllocationState;
import me.loutres.juneau.status.Messages;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.ip.AddressRange;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;

/**
 * What the controller would allocate (docs/phases-and-conditions.md), with the controller's own pieces: the network resolution,
 * then the allocator in the network's pool order, after the VIPs already recorded in ServiceLoadBalancer statuses
 * were restored, with node InternalIPs kept out of arp pools and the cluster's ranges (ServiceCIDRs, Node podCIDRs)
 * out of every pool.
 */
final class VipSimulation {
    private final Allocator allocator = new Allocator();
    private final Map<String, Set<Long>> nodeAddresses = new HashMap<>();
    private boolean restored;

    /** The forecast for one accepted managed Service; the allocation is kept for the Services after it. */
    Outcome.VipForecast allocate(Service service, ClusterView view) {
        if (!restored) {
            // the whole view once; after this, each accepted object updates the allocator alone (accepted)
            view.addressPools().forEach(pool -> AllocatorFeed.pool(pool).into(allocator));
            view.nodes().forEach(node -> nodeAddresses.put(node.getMetadata().getName(),
                    AllocatorFeed.nodeAddresses(List.of(node))));
            allocator.setExcludedAddresses(excluded());
            allocator.setReservedRanges(clusterRanges(view));
            allocator.restore(records(view));
            restored = true;
        }
        Map<String, String> annotations = service.getMetadata().getAnnotations() == null ? Map.of()
                : service.getMetadata().getAnnotations();
        // the annotation's network, else the default one the Service may use: the controller's choice
        // (docs/api-reference.md), with the Namespaces of the files or the cluster state
        String namespace = service.getMetadata().getNamespace();
        NetworkAccess.Requester who = new NetworkAccess.Requester(namespace, service.getMetadata().getName(),
                view.namespaceLabels(namespace).orElse(null), service.getMetadata().getLabels());
        NetworkChoice choice = DefaultNetwork.choose(annotations.get(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK),
                view.serviceLoadBalancer(namespace, service.getMetadata().getName()).orElse(null),
                view.defaultNetworks(), who);
        String network = choice.networkOrNull();
        String requested = trim(annotations.get(JuneauConstants.ANNOTATION_REQUESTED_IP));
        NetworkResolution resolution = NetworkResolver.resolve(choice, name -> view.externalNetwork(name).orElse(null),
                name -> view.addressPool(name).orElse(null), o -> java.util.Optional.empty(), who);
        if (resolution instanceof NetworkResolution.Unavailable u) {
            return forecast(AllocationState.of(u), network, view);
        }
        NetworkResolution.Usable usable = (NetworkResolution.Usable) resolution;
        List<String> order = usable.pools().stream().map(p -> p.getMetadata().getName()).toList();
        OptionalLong ip = requested == null || requested.isEmpty() || !Ipv4.isValid(requested) ? OptionalLong.empty()
                : OptionalLong.of(Ipv4.parse(requested));
        String owner = service.getMetadata().getNamespace() + "/" + service.getMetadata().getName();
        return forecast(AllocationState.of(allocator.allocate(owner, order, ip), network), network, view);
    }

    /** The controller's own reading of an allocation (phase, reason, message), as a forecast. */
    private static Outcome.VipForecast forecast(AllocationState state, String network, ClusterView view) {
        if (state instanceof AllocationState.Allocated a) {
            return withNodes(new Outcome.VipForecast(JuneauConstants.PHASE_ALLOCATED, JuneauConstants.REASON_ALLOCATED,
                    a.vip(), a.pool(), network, Messages.allocated(a.vip(), a.pool())), network, view);
        }
        if (state instanceof AllocationState.Pending p) {
            return new Outcome.VipForecast(JuneauConstants.PHASE_PENDING, p.reason(), null, null, network, p.message());
        }
        AllocationState.Failed f = (AllocationState.Failed) state;
        return new Outcome.VipForecast(JuneauConstants.PHASE_ERROR, f.reason(), null, null, network, f.message());
    }

    /**
     * Which Nodes of the cluster state may advertise the network's VIPs, by the controller's own rule
     * ({@link NodeEligibility}: the network's nodeSelector, Kubernetes' exclusion label); the ones with a ready
     * backend will (validate sees no EndpointSlices).
     */
    static Outcome.VipForecast withNodes(Outcome.VipForecast f, String network, ClusterView view) {
        Map<String, Map<String, String>> labels = new TreeMap<>();
        for (Node n : view.nodes()) {
            if (n != null && n.getMetadata() != null && n.getMetadata().getName() != null) {
                labels.put(n.getMetadata().getName(), n.getMetadata().getLabels() == null ? Map.of()
                        : n.getMetadata().getLabels());
            }
        }
        ExternalNetwork net = view.externalNetwork(network).orElse(null);
        NodeEligibility rule = NodeEligibility.of(network, net == null || net.getSpec() == null ? null
                : net.getSpec().getNodeSelector(), labels);
        List<String> may = new ArrayList<>();
        List<String> out = new ArrayList<>();
        for (String node : labels.keySet()) {
            String why = rule.whyNot(node);
            if (why == null) {
                may.add(node);
            } else {
                out.add(node + ": " + why);
            }
        }
        return f.withNodes(may, out);
    }

    /**
     * An object the run accepted into its view: a pool or a Node changes what the allocator may hand out, as the
     * controller's informers would tell it (a bad pool entry offers nothing). Cost per object: that object alone.
     */
    void accepted(HasMetadata object, ClusterView view) {
        if (!restored) {
            return; // the first allocation reads the whole view
        }
        if (object instanceof Node || object instanceof ServiceCIDR) {
            // a podCIDR or a ServiceCIDR is never handed out, as the controller's allocator keeps it
            // (docs/allocation.md, "Pools overlapping the cluster's ranges")
            allocator.setReservedRanges(clusterRanges(view));
        }
        if (object instanceof AddressPool pool) {
            AllocatorFeed.pool(pool).into(allocator);
        } else if (object instanceof Node node) {
            nodeAddresses.put(node.getMetadata().getName(), AllocatorFeed.nodeAddresses(List.of(node)));
            allocator.setExcludedAddresses(excluded());
        }
    }

    /** Every ServiceCIDR and Node podCIDR of the view (IPv4), as the controller learns them. */
    private static List<AddressRange> clusterRanges(ClusterView view) {
        return view.learntRangesOverlapping(new AddressRange(0, 0xFFFF_FFFFL)).stream().map(LearntRange::range).toList();
    }

    private Set<Long> excluded() {
        Set<Long> all = new HashSet<>();
        nodeAddresses.values().forEach(all::addAll);
        return all;
    }

    static List<AllocationRecord> records(ClusterView view) {
        return AllocatorFeed.records(view.serviceLoadBalancers(), view.addressPools()).records();
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}
