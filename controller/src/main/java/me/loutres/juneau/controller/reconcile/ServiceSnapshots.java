package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.plan.AnnounceFacts;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.plan.ServiceSnapshot;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkAccess;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.selection.NodeEligibility;

/**
 * Reads one Service key's {@link ServiceSnapshot} from the cache (which shows the controller's own recent writes),
 * once per pass. The agent Leases and the Node labels are copied for the Service's nodes only — the nodes of its
 * EndpointSlices, the only ones a plan asks about — so a large cluster costs no more per pass than a small one.
 * The allocator comes as a read-only view of the term's book, brought in step with the cache's pools first: the
 * plan reads what it would answer, the applier commits the plan's decision only while it still holds.
 */
final class ServiceSnapshots {
    private final ClusterCache cache;
    private final Clock clock;
    private final ManagedServices managed;
    private final boolean arpWithoutAgents;
    private final ServiceMemory memory;
    private final BiPredicate<String, String> claimOrder;
    /**
     * How far back an allocation may be unannounced: a previous leader stops at most a lease duration before a
     * standby takes over (docs/operations.md), doubled for the restore and for clock skew between replicas.
     */
    private volatile Duration reannounceWindow = Duration.ofSeconds(40);

    ServiceSnapshots(ClusterCache cache, Clock clock, ManagedServices managed, boolean arpWithoutAgents,
            ServiceMemory memory) {
        this.cache = cache;
        this.clock = clock;
        this.managed = managed;
        this.arpWithoutAgents = arpWithoutAgents;
        this.memory = memory;
        this.claimOrder = claimOrder(cache);
    }

    void reannounceWindow(Duration window) {
        this.reannounceWindow = window;
    }

    /**
     * The restore's order of age (oldest ServiceLoadBalancer first), from the cache, so every leader settles a second
     * claim on an address alike (docs/allocation.md, "Two claims on one address").
     */
    static BiPredicate<String, String> claimOrder(ClusterCache cache) {
        return (claimant, holder) -> AllocatorFeed.older(cache.serviceLoadBalancer(ServiceKey.parse(claimant)),
                cache.serviceLoadBalancer(ServiceKey.parse(holder)));
    }

    ServiceSnapshot read(ServiceKey key, LeaderState st) {
        Term term = st.term();
        Instant now = clock.instant();
        Service svc = cache.service(key);
        ServiceLoadBalancer slb = cache.serviceLoadBalancer(key);
        ARPAdvertisement arp = cache.arpAdvertisement(JuneauConstants.arpAdvertisementName(key.namespace(),
                key.name()));
        List<EndpointSlice> slices = cache.endpointSlicesOf(key);
        Set<String> endpointNodes = nodesOf(slices);
        NetworkChoice choice = null;
        NetworkResolution resolution = null;
        AnnounceFacts announce = null;
        Map<Long, String> nodeAddresses = Map.of();
        if (svc != null && svc.getMetadata() != null) {
            // the annotation's network, else the default one the Service may use (kept once it gave a VIP):
            // admission's choice; a network that does not let the Service in is NotAllowed (docs/install.md)
            NetworkAccess.Requester who = new NetworkAccess.Requester(key.namespace(), key.name(),
                    cache.namespaceLabels(key.namespace()), svc.getMetadata().getLabels());
            choice = DefaultNetwork.choose(ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK),
                    slb, cache.networks(), who);
            String network = choice.networkOrNull();
            resolution = NetworkResolver.resolve(choice, cache::network, cache::pool, cache::unreadable, who);
            announce = announceFacts(network, resolution, endpointNodes);
            String requested = ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_REQUESTED_IP);
            // Node addresses matter only to a requested IP (the allocator has its own copy for the rest)
            nodeAddresses = requested == null || requested.isBlank() ? Map.of() : cache.nodeAddresses();
            sync(st.book(), resolution, slb);
        }
        List<Lease> leases = new ArrayList<>();
        endpointNodes.forEach(n -> {
            Lease l = cache.agentLease(n);
            if (l != null) {
                leases.add(l);
            }
        });
        return new ServiceSnapshot(key.namespace(), key.name(), managed, svc, slb,
                slb == null ? null : cache.unreadable(slb).orElse(null), choice, resolution, statusPoolMode(slb),
                nodeAddresses, slices, arp,
                arp == null || arp.getMetadata() == null ? null : cache.unreadable(arp).orElse(null),
                NodeLiveness.of(leases, cache.leaseHorizon().watched()), cache.nodeNames(), announce, now, memory.standing(key),
                !memory.looked(term, key), memory.termStartedAt(term).minus(reannounceWindow),
                st.book().view(claimOrder));
    }

    /**
     * The book learns the network's pools as the cache has them (a no-op when unchanged); the Nodes and the learnt
     * ranges matter only to a new allocation, so a Service holding its VIP does not pay for comparing them.
     */
    private void sync(AllocationBook book, NetworkResolution resolution, ServiceLoadBalancer slb) {
        if (resolution instanceof NetworkResolution.Usable u) {
            u.pools().forEach(book::syncPool);
        }
        String vip = slb == null || slb.getStatus() == null ? null : slb.getStatus().getVip();
        if (vip == null || vip.isBlank()) {
            book.syncNodes(cache.nodes());
            book.syncLearntRanges(cache.learntRanges());
        }
    }

    /**
     * Who may announce (the network's node selector, the exclusion label, agents) and what the agents report, for
     * the nodes with an endpoint: only they can advertise.
     */
    private AnnounceFacts announceFacts(String network, NetworkResolution resolution, Set<String> nodes) {
        // a network that no longer lets the Service in still says which nodes may announce the VIP it keeps
        boolean notAllowed = resolution instanceof NetworkResolution.Unavailable u
                && JuneauConstants.REASON_NOT_ALLOWED.equals(u.reason());
        ExternalNetwork net = resolution instanceof NetworkResolution.Usable || notAllowed ? cache.network(network)
                : null;
        LabelSelector selector = ClusterCache.nodeSelector(net);
        List<AnnounceFacts.SessionReport> sessions = new ArrayList<>();
        List<String> peers = List.of();
        if (resolution instanceof NetworkResolution.Usable u && JuneauConstants.MODE_BGP.equals(u.type())) {
            if (net != null && net.getSpec() != null && net.getSpec().getBgp() != null
                    && net.getSpec().getBgp().getPeers() != null) {
                peers = net.getSpec().getBgp().getPeers();
            }
            for (String node : nodes) {
                for (BGPSession s : cache.bgpSessionsOf(node)) {
                    BGPSessionStatus st = s.getStatus();
                    sessions.add(new AnnounceFacts.SessionReport(s.getSpec() == null ? null : s.getSpec().getPeer(),
                            node, st == null ? null : st.getState(), st == null ? null : st.getLastError(),
                            withheld(st, network), st == null ? null : st.getCarriedAddresses()));
                }
            }
        }
        Map<String, Map<String, String>> labels = new HashMap<>();
        for (String node : nodes) {
            Map<String, String> l = cache.nodeLabels(node);
            if (l != null) {
                labels.put(node, java.util.Collections.unmodifiableMap(new HashMap<>(l)));
            }
        }
        return new AnnounceFacts(NodeEligibility.of(network, selector, labels), arpWithoutAgents, sessions, peers,
                refusedWrites(nodes));
    }

    /** Per node and kind, the writes the API server refuses its agent, as the agent's Lease says (docs/design.md). */
    private Map<String, Map<String, String>> refusedWrites(Set<String> nodes) {
        Map<String, Map<String, String>> out = new HashMap<>();
        for (String node : nodes) {
            io.fabric8.kubernetes.api.model.coordination.v1.Lease l = cache.agentLease(node);
            Map<String, String> annotations = l == null || l.getMetadata() == null ? null
                    : l.getMetadata().getAnnotations();
            String value = annotations == null ? null : annotations.get(me.loutres.juneau.plan.RefusedWrites.ANNOTATION);
            if (value != null) {
                out.put(node, me.loutres.juneau.plan.RefusedWrites.parse(value));
            }
        }
        return out;
    }

    /** Why the session's BIRD does not carry {@code network}'s routes (docs/bgp.md), or null when it does. */
    private static String withheld(BGPSessionStatus st, String network) {
        if (st == null || st.getWithheldNetworks() == null) {
            return null;
        }
        return st.getWithheldNetworks().stream().filter(w -> w != null && network.equals(w.getName()))
                .map(w -> w.getReason() == null || w.getReason().isBlank() ? "withheld" : w.getReason()).findFirst()
                .orElse(null);
    }

    /** The mode of the pool {@code status.addressPool} names: what to announce with while the network is unreadable. */
    private String statusPoolMode(ServiceLoadBalancer slb) {
        String name = slb == null || slb.getStatus() == null ? null : slb.getStatus().getAddressPool();
        AddressPool p = name == null || name.isBlank() ? null : cache.pool(name.trim());
        return p == null || p.getSpec() == null ? null : p.getSpec().getAdvertiseMode();
    }

    private static Set<String> nodesOf(List<EndpointSlice> slices) {
        Set<String> nodes = new TreeSet<>();
        for (EndpointSlice s : slices) {
            if (s != null && s.getEndpoints() != null) {
                s.getEndpoints().forEach(e -> {
                    if (e != null && e.getNodeName() != null) {
                        nodes.add(e.getNodeName());
                    }
                });
            }
        }
        return nodes;
    }
}
