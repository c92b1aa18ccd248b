package me.loutres.juneau.admission;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.PoolEntryRef;
import me.loutres.juneau.view.RangeIndex;

/** A view that answers through another and counts which of its questions were asked, by method name. */
final class CountingClusterView implements ClusterView {
    /** The questions whose cost grows with a whole kind: a review must never ask them. */
    static final List<String> WHOLE_KIND = List.of("addressPools", "externalNetworks", "serviceLoadBalancers",
            "arpAdvertisements", "nodes");

    private final ClusterView inner;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    CountingClusterView(ClusterView inner) {
        this.inner = inner;
    }

    int calls(String method) {
        AtomicInteger n = calls.get(method);
        return n == null ? 0 : n.get();
    }

    int wholeKindCalls() {
        return WHOLE_KIND.stream().mapToInt(this::calls).sum();
    }

    private <T> T count(String method, T answer) {
        calls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
        return answer;
    }

    @Override
    public Optional<AddressPool> addressPool(String name) {
        return count("addressPool", inner.addressPool(name));
    }

    @Override
    public Collection<AddressPool> addressPools() {
        return count("addressPools", inner.addressPools());
    }

    @Override
    public Optional<ExternalNetwork> externalNetwork(String name) {
        return count("externalNetwork", inner.externalNetwork(name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworks() {
        return count("externalNetworks", inner.externalNetworks());
    }

    @Override
    public Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name) {
        return count("serviceLoadBalancer", inner.serviceLoadBalancer(namespace, name));
    }

    @Override
    public Collection<ServiceLoadBalancer> serviceLoadBalancers() {
        return count("serviceLoadBalancers", inner.serviceLoadBalancers());
    }

    @Override
    public Collection<ARPAdvertisement> arpAdvertisements() {
        return count("arpAdvertisements", inner.arpAdvertisements());
    }

    @Override
    public Optional<Node> node(String name) {
        return count("node", inner.node(name));
    }

    @Override
    public Collection<Node> nodes() {
        return count("nodes", inner.nodes());
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address) {
        return count("serviceLoadBalancersWithVip", inner.serviceLoadBalancersWithVip(address));
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network) {
        return count("serviceLoadBalancersOfNetwork", inner.serviceLoadBalancersOfNetwork(network));
    }

    @Override
    public List<ExternalNetwork> defaultNetworks() {
        return count("defaultNetworks", inner.defaultNetworks());
    }

    @Override
    public List<ExternalNetwork> externalNetworksListingPool(String pool) {
        return count("externalNetworksListingPool", inner.externalNetworksListingPool(pool));
    }

    @Override
    public List<ARPAdvertisement> arpAdvertisementsAt(long address) {
        return count("arpAdvertisementsAt", inner.arpAdvertisementsAt(address));
    }

    @Override
    public List<PoolEntryRef> poolEntriesOverlapping(AddressRange range) {
        return count("poolEntriesOverlapping", inner.poolEntriesOverlapping(range));
    }

    @Override
    public List<RangeIndex.Hit<String>> nodeInternalIpsIn(AddressRange range) {
        return count("nodeInternalIpsIn", inner.nodeInternalIpsIn(range));
    }

    @Override
    public List<LearntRange> learntRangesOverlapping(AddressRange range) {
        return count("learntRangesOverlapping", inner.learntRangesOverlapping(range));
    }

    @Override
    public List<String> names(NamedKind kind) {
        return count("names", inner.names(kind));
    }

    @Override
    public Optional<BGPPeer> bgpPeer(String name) {
        return count("bgpPeer", inner.bgpPeer(name));
    }

    @Override
    public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
        return count("bgpPeersWithAddress", inner.bgpPeersWithAddress(peerAddress));
    }

    @Override
    public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
        return count("bgpPeersNamingBfdProfile", inner.bgpPeersNamingBfdProfile(profile));
    }

    @Override
    public Optional<BFDProfile> bfdProfile(String name) {
        return count("bfdProfile", inner.bfdProfile(name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
        return count("externalNetworksNamingPeer", inner.externalNetworksNamingPeer(peer));
    }

    @Override
    public Optional<Set<String>> systemSecretKeys(String name) {
        return count("systemSecretKeys", inner.systemSecretKeys(name));
    }

    @Override
    public Optional<java.util.Map<String, String>> namespaceLabels(String name) {
        return count("namespaceLabels", inner.namespaceLabels(name));
    }

    @Override
    public Optional<String> systemSecretPasswordProblem(String name, String key) {
        return count("systemSecretPasswordProblem", inner.systemSecretPasswordProblem(name, key));
    }
}
