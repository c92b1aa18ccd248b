package me.loutres.juneau.view;

import me.loutres.juneau.policy.DefaultNetwork;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.IpRange;

/**
 * A cluster view built from a list of objects (a {@code --cluster-state} file, or the objects a {@code validate} run
 * has accepted so far), indexed once when built and then per added object (docs/admission.md, "Cost of a review").
 * Objects of other kinds are kept so callers can look them up by kind and name (e.g. an existing Service, to review a
 * manifest as an UPDATE). A later object with the same kind, namespace and name replaces an earlier one, as a later
 * {@code kubectl apply} would.
 *
 * <p>The webhook's {@code --cluster-state} view is never changed after it is built; {@link #add} is for the one
 * thread of a {@code validate} run, which grows its view object by object.
 */
public final class SnapshotClusterView implements ClusterView {
    private final Map<String, HasMetadata> objects = new LinkedHashMap<>(); // key: group/kind/namespace/name
    private final Map<String, AddressPool> pools = new LinkedHashMap<>();
    private final Map<String, ExternalNetwork> networks = new LinkedHashMap<>();
    private final Map<String, ServiceLoadBalancer> slbs = new LinkedHashMap<>();
    private final Map<String, ARPAdvertisement> arps = new LinkedHashMap<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final KeyIndex<ServiceLoadBalancer> slbByVip = new KeyIndex<>(ViewKeys::vip);
    private final KeyIndex<ServiceLoadBalancer> slbByNetwork = new KeyIndex<>(ViewKeys::network);
    private final KeyIndex<ExternalNetwork> networkByPool = new KeyIndex<>(ViewKeys::pools);
    private final KeyIndex<ExternalNetwork> networkByMark = new KeyIndex<>(ViewKeys::defaultMark);
    private final KeyIndex<ARPAdvertisement> arpByAddress = new KeyIndex<>(ViewKeys::arpAddress);
    private final RangeIndex<PoolEntryRef> poolEntries = new RangeIndex<>();
    private final RangeIndex<String> nodeIps = new RangeIndex<>();
    private final RangeIndex<LearntRange> learnt = new RangeIndex<>();
    private final WideRangeIndex<IpPoolEntryRef> ipv6PoolEntries = new WideRangeIndex<>();
    private final WideRangeIndex<String> ipv6NodeIps = new WideRangeIndex<>();
    private final WideRangeIndex<IpLearntRange> ipv6Learnt = new WideRangeIndex<>();
    private final Map<String, BGPPeer> peers = new LinkedHashMap<>();
    private final Map<String, BFDProfile> bfdProfiles = new LinkedHashMap<>();
    private final Map<String, Set<String>> systemSecretKeys = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    private final Map<String, Secret> systemSecrets = new LinkedHashMap<>();
    private final KeyIndex<BGPPeer> peersByAddress = new KeyIndex<>(p -> p.getSpec() == null
            || p.getSpec().getPeerAddress() == null ? List.of() : List.of(p.getSpec().getPeerAddress()));
    private final KeyIndex<BGPPeer> peersByBfdProfile = new KeyIndex<>(p -> p.getSpec() == null
            || p.getSpec().getBfdProfile() == null ? List.of() : List.of(p.getSpec().getBfdProfile()));
    private final KeyIndex<ExternalNetwork> networksByPeer = new KeyIndex<>(BgpNames::peersOf);

    /**
     * @throws UnreadableObjectException when a generic object of one of our kinds does not fit its type
     */
    public SnapshotClusterView(Collection<? extends HasMetadata> objects) {
        for (HasMetadata o : objects) {
            add(o);
        }
    }

    public static SnapshotClusterView empty() {
        return new SnapshotClusterView(List.of());
    }

    /** A new view with the object added (or replacing the one with the same kind, namespace and name). */
    public SnapshotClusterView with(HasMetadata object) {
        List<HasMetadata> next = new ArrayList<>(objects.values());
        next.add(object);
        return new SnapshotClusterView(next);
    }

    /** A new view without the object of that kind, namespace and name. */
    public SnapshotClusterView without(HasMetadata object) {
        String k = key(KubeObjects.typed(object));
        return new SnapshotClusterView(objects.entrySet().stream().filter(e -> !e.getKey().equals(k))
                .map(Map.Entry::getValue).toList());
    }

    /**
     * Adds the object to this view (replacing the one with the same kind, namespace and name), updating the indexes
     * for it alone: a cost per object that does not grow with the view.
     *
     * @throws UnreadableObjectException when a generic object of one of our kinds does not fit its type
     */
    public SnapshotClusterView add(HasMetadata object) {
        HasMetadata o = KubeObjects.typed(object);
        if (o instanceof Secret secret) {
            o = Secrets.keysOnly(secret); // a view never holds a Secret's values
        }
        String key = key(o);
        objects.put(key, o);
        String name = o.getMetadata() == null ? null : o.getMetadata().getName();
        String indexKey = name == null ? key : ViewKeys.key(o);
        if (o instanceof AddressPool p) {
            pools.put(name, p);
            poolEntries.replace(indexKey, ViewKeys.poolEntries(p));
            ipv6PoolEntries.replace(indexKey, ViewKeys.ipv6PoolEntries(p));
        } else if (o instanceof ExternalNetwork n) {
            networks.put(name, n);
            networkByPool.put(indexKey, n);
            networkByMark.put(indexKey, n);
            networksByPeer.put(indexKey, n);
        } else if (o instanceof ServiceLoadBalancer s) {
            slbs.put(s.getMetadata().getNamespace() + "/" + name, s);
            slbByVip.put(indexKey, s);
            slbByNetwork.put(indexKey, s);
        } else if (o instanceof ARPAdvertisement a) {
            arps.put(name, a);
            arpByAddress.put(indexKey, a);
        } else if (o instanceof Node n) {
            nodes.put(name, n);
            nodeIps.replace(indexKey, ViewKeys.internalIps(n));
            learnt.replace("Node/" + indexKey, ViewKeys.podCidrs(n));
            ipv6NodeIps.replace(indexKey, ViewKeys.ipv6InternalIps(n));
            ipv6Learnt.replace("Node/" + indexKey, ViewKeys.ipv6PodCidrs(n));
        } else if (o instanceof ServiceCIDR c) {
            learnt.replace("ServiceCIDR/" + indexKey, ViewKeys.serviceCidrs(c));
            ipv6Learnt.replace("ServiceCIDR/" + indexKey, ViewKeys.ipv6ServiceCidrs(c));
        } else if (o instanceof me.loutres.juneau.api.v1alpha1.NodeNetwork nn) {
            // a node's interface addresses and gateways (docs/api-reference.md, NodeNetwork): kept out of pools as ranges the cluster uses
            learnt.replace("NodeNetwork/" + indexKey, NodeNetworkAddresses.ipv4(nn));
            ipv6Learnt.replace("NodeNetwork/" + indexKey, NodeNetworkAddresses.ipv6(nn));
        } else if (o instanceof BGPPeer p) {
            peers.put(name, p);
            peersByAddress.put(indexKey, p);
            peersByBfdProfile.put(indexKey, p);
        } else if (o instanceof BFDProfile b) {
            bfdProfiles.put(name, b);
        } else if (o instanceof Secret secret
                && JuneauConstants.SYSTEM_NAMESPACE.equals(secret.getMetadata().getNamespace())) {
            systemSecretKeys.put(name, Collections.unmodifiableSet(new TreeSet<>(Secrets.keys(secret))));
            systemSecrets.put(name, secret);
        } else if (o instanceof Namespace ns) {
            namespaceLabels.put(name, ViewKeys.labels(ns));
        }
        return this;
    }

    /** Every object of the snapshot, in the order it was given. */
    public List<HasMetadata> objects() {
        return List.copyOf(objects.values());
    }

    /** An object by API group ("" for core), kind, namespace (null for cluster-scoped) and name. */
    public Optional<HasMetadata> find(String group, String kind, String namespace, String name) {
        return Optional.ofNullable(objects.get(group + "/" + kind + "/" + (namespace == null ? "" : namespace) + "/" + name));
    }

    private static String key(HasMetadata o) {
        String ns = o.getMetadata() == null || o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace();
        String name = o.getMetadata() == null ? null : o.getMetadata().getName();
        return KubeObjects.group(o.getApiVersion()) + "/" + o.getKind() + "/" + ns + "/" + name;
    }

    @Override
    public Optional<AddressPool> addressPool(String name) {
        return Optional.ofNullable(pools.get(name));
    }

    @Override
    public Collection<AddressPool> addressPools() {
        return Collections.unmodifiableCollection(pools.values());
    }

    @Override
    public Optional<ExternalNetwork> externalNetwork(String name) {
        return Optional.ofNullable(networks.get(name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworks() {
        return Collections.unmodifiableCollection(networks.values());
    }

    @Override
    public Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name) {
        return Optional.ofNullable(slbs.get(namespace + "/" + name));
    }

    @Override
    public Collection<ServiceLoadBalancer> serviceLoadBalancers() {
        return Collections.unmodifiableCollection(slbs.values());
    }

    @Override
    public Collection<ARPAdvertisement> arpAdvertisements() {
        return Collections.unmodifiableCollection(arps.values());
    }

    @Override
    public Optional<Node> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    @Override
    public Collection<Node> nodes() {
        return Collections.unmodifiableCollection(nodes.values());
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address) {
        return slbByVip.get(ViewKeys.address(address));
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network) {
        return slbByNetwork.get(network);
    }

    @Override
    public List<ExternalNetwork> defaultNetworks() {
        return networkByMark.get(DefaultNetwork.TRUE);
    }

    @Override
    public List<ExternalNetwork> externalNetworksListingPool(String pool) {
        return networkByPool.get(pool);
    }

    @Override
    public List<ARPAdvertisement> arpAdvertisementsAt(long address) {
        return arpByAddress.get(ViewKeys.address(address));
    }

    @Override
    public List<PoolEntryRef> poolEntriesOverlapping(AddressRange range) {
        return poolEntries.overlapping(range).stream().map(RangeIndex.Hit::value).toList();
    }

    @Override
    public List<RangeIndex.Hit<String>> nodeInternalIpsIn(AddressRange range) {
        return nodeIps.overlapping(range);
    }

    @Override
    public List<LearntRange> learntRangesOverlapping(AddressRange range) {
        return learnt.overlapping(range).stream().map(RangeIndex.Hit::value).toList();
    }

    @Override
    public List<IpPoolEntryRef> ipv6PoolEntriesOverlapping(IpRange range) {
        return ipv6PoolEntries.overlapping(range).stream().map(WideRangeIndex.Hit::value).toList();
    }

    @Override
    public List<WideRangeIndex.Hit<String>> ipv6NodeInternalIpsIn(IpRange range) {
        return ipv6NodeIps.overlapping(range);
    }

    @Override
    public List<IpLearntRange> ipv6LearntRangesOverlapping(IpRange range) {
        return ipv6Learnt.overlapping(range).stream().map(WideRangeIndex.Hit::value).toList();
    }

    @Override
    public List<String> names(NamedKind kind) {
        Set<String> names = switch (kind) {
            case ADDRESS_POOL -> pools.keySet();
            case EXTERNAL_NETWORK -> networks.keySet();
            case NODE -> nodes.keySet();
        };
        return names.stream().sorted().toList();
    }

    @Override
    public Optional<BGPPeer> bgpPeer(String name) {
        return Optional.ofNullable(peers.get(name));
    }

    @Override
    public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
        return peersByAddress.get(peerAddress);
    }

    @Override
    public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
        return peersByBfdProfile.get(profile);
    }

    @Override
    public Optional<BFDProfile> bfdProfile(String name) {
        return Optional.ofNullable(bfdProfiles.get(name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
        return networksByPeer.get(peer);
    }

    @Override
    public Optional<Map<String, String>> namespaceLabels(String name) {
        return Optional.ofNullable(name == null ? null : namespaceLabels.get(name));
    }

    @Override
    public Optional<Set<String>> systemSecretKeys(String name) {
        return Optional.ofNullable(systemSecretKeys.get(name));
    }

    @Override
    public Optional<String> systemSecretPasswordProblem(String name, String key) {
        Secret secret = systemSecrets.get(name);
        return secret == null ? Optional.empty() : Secrets.passwordProblem(secret, key);
    }

    /** Objects by the keys {@code keys} gives each (exact match), in the order they were added. */
    private static final class KeyIndex<T extends HasMetadata> {
        private final Function<T, List<String>> keys;
        private final Map<String, Set<String>> ownersByKey = new HashMap<>();
        private final Map<String, List<String>> keysByOwner = new HashMap<>();
        private final Map<String, T> objects = new HashMap<>();

        KeyIndex(Function<T, List<String>> keys) {
            this.keys = keys;
        }

        void put(String owner, T object) {
            for (String k : keysByOwner.getOrDefault(owner, List.of())) {
                Set<String> owners = ownersByKey.get(k);
                owners.remove(owner);
                if (owners.isEmpty()) {
                    ownersByKey.remove(k);
                }
            }
            List<String> now = keys.apply(object);
            keysByOwner.put(owner, now);
            objects.put(owner, object);
            for (String k : now) {
                ownersByKey.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(owner);
            }
        }

        List<T> get(String key) {
            Set<String> owners = key == null ? null : ownersByKey.get(key);
            return owners == null ? List.of() : owners.stream().map(objects::get).toList();
        }
    }
}
