package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * An immutable cluster view built from a list of objects (a {@code --cluster-state} file, or the objects a
 * {@code validate} run has accepted so far). Objects of other kinds are kept so callers can look them up by kind and
 * name (e.g. an existing Service, to review a manifest as an UPDATE). A later object with the same kind, namespace and
 * name replaces an earlier one, as a later {@code kubectl apply} would.
 */
public final class SnapshotClusterView implements ClusterView {
    private final Map<String, HasMetadata> objects; // key: group/kind/namespace/name, insertion order kept
    private final Map<String, AddressPool> pools = new LinkedHashMap<>();
    private final Map<String, ExternalNetwork> networks = new LinkedHashMap<>();
    private final Map<String, ServiceLoadBalancer> slbs = new LinkedHashMap<>();
    private final Map<String, ARPAdvertisement> arps = new LinkedHashMap<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, BGPPeer> peers = new LinkedHashMap<>();
    private final Map<String, BFDProfile> bfdProfiles = new LinkedHashMap<>();
    private final Map<String, Set<String>> systemSecretKeys = new LinkedHashMap<>();
    private final Map<String, List<BGPPeer>> peersByAddress = new LinkedHashMap<>();
    private final Map<String, List<BGPPeer>> peersByBfdProfile = new LinkedHashMap<>();
    private final Map<String, List<ExternalNetwork>> networksByPeer = new LinkedHashMap<>();

    /**
     * @throws UnreadableObjectException when a generic object of one of our kinds does not fit its type
     */
    public SnapshotClusterView(Collection<? extends HasMetadata> objects) {
        Map<String, HasMetadata> byKey = new LinkedHashMap<>();
        for (HasMetadata o : objects) {
            HasMetadata typed = KubeObjects.typed(o);
            if (typed instanceof Secret secret) {
                typed = Secrets.keysOnly(secret); // a view never holds a Secret's values
            }
            byKey.put(key(typed), typed);
        }
        this.objects = Collections.unmodifiableMap(byKey);
        for (HasMetadata o : byKey.values()) {
            if (o instanceof AddressPool p) {
                pools.put(p.getMetadata().getName(), p);
            } else if (o instanceof ExternalNetwork n) {
                networks.put(n.getMetadata().getName(), n);
            } else if (o instanceof ServiceLoadBalancer s) {
                slbs.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(), s);
            } else if (o instanceof ARPAdvertisement a) {
                arps.put(a.getMetadata().getName(), a);
            } else if (o instanceof Node n) {
                nodes.put(n.getMetadata().getName(), n);
            } else if (o instanceof BGPPeer p) {
                peers.put(p.getMetadata().getName(), p);
            } else if (o instanceof BFDProfile b) {
                bfdProfiles.put(b.getMetadata().getName(), b);
            } else if (o instanceof Secret secret
                    && JuneauConstants.SYSTEM_NAMESPACE.equals(secret.getMetadata().getNamespace())) {
                systemSecretKeys.put(secret.getMetadata().getName(), Collections.unmodifiableSet(
                        new TreeSet<>(Secrets.keys(secret))));
            }
        }
        for (BGPPeer p : peers.values()) {
            if (p.getSpec() != null && p.getSpec().getPeerAddress() != null) {
                peersByAddress.computeIfAbsent(p.getSpec().getPeerAddress(), k -> new ArrayList<>()).add(p);
            }
            if (p.getSpec() != null && p.getSpec().getBfdProfile() != null) {
                peersByBfdProfile.computeIfAbsent(p.getSpec().getBfdProfile(), k -> new ArrayList<>()).add(p);
            }
        }
        for (ExternalNetwork n : networks.values()) {
            for (String peer : BgpNames.peersOf(n)) {
                networksByPeer.computeIfAbsent(peer, k -> new ArrayList<>()).add(n);
            }
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
    public Optional<BGPPeer> bgpPeer(String name) {
        return Optional.ofNullable(peers.get(name));
    }

    @Override
    public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
        return List.copyOf(peersByAddress.getOrDefault(peerAddress, List.of()));
    }

    @Override
    public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
        return List.copyOf(peersByBfdProfile.getOrDefault(profile, List.of()));
    }

    @Override
    public Optional<BFDProfile> bfdProfile(String name) {
        return Optional.ofNullable(bfdProfiles.get(name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
        return List.copyOf(networksByPeer.getOrDefault(peer, List.of()));
    }

    @Override
    public Optional<Set<String>> systemSecretKeys(String name) {
        return Optional.ofNullable(systemSecretKeys.get(name));
    }
}
