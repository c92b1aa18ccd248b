package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * What the cross-object admission checks may read of the cluster (SPEC §2): an informer cache in a cluster, a
 * snapshot built from YAML files offline. Implementations return live or immutable objects; callers never modify them.
 */
public interface ClusterView {
    Optional<AddressPool> addressPool(String name);

    Collection<AddressPool> addressPools();

    Optional<ExternalNetwork> externalNetwork(String name);

    Collection<ExternalNetwork> externalNetworks();

    Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name);

    Collection<ServiceLoadBalancer> serviceLoadBalancers();

    Collection<ARPAdvertisement> arpAdvertisements();

    Optional<Node> node(String name);

    Collection<Node> nodes();

    Optional<BGPPeer> bgpPeer(String name);

    /** The BGPPeers whose {@code spec.peerAddress} is exactly this text (an index, not a walk of every peer). */
    Collection<BGPPeer> bgpPeersWithAddress(String peerAddress);

    /** The BGPPeers whose {@code spec.bfdProfile} names this BFDProfile. */
    Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile);

    Optional<BFDProfile> bfdProfile(String name);

    /** The ExternalNetworks whose {@code spec.bgp.peers} lists this BGPPeer by name. */
    Collection<ExternalNetwork> externalNetworksNamingPeer(String peer);

    /**
     * The data keys of the Secret {@code name} in juneau-system, empty when there is no such Secret. Only names and
     * keys are kept, never a value, and no other namespace is read (docs/admission.md, BGPPeer).
     */
    Optional<Set<String>> systemSecretKeys(String name);
}
