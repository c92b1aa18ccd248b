package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;

/**
 * What the cross-object admission checks may read of the cluster (docs/admission.md): an informer cache in a cluster, a
 * snapshot built from YAML files offline. Implementations return live or immutable objects; callers never modify them.
 *
 * <p>A review asks only the named and indexed questions, whose cost follows the answer and not the size of the
 * cluster (docs/admission.md, "Cost of a review"). The whole-kind collections are for loading something once (the
 * offline allocator's feed), never for a review.
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

    // --- indexed questions (what a review asks) ---

    /** The ServiceLoadBalancers whose {@code status.vip} is this address. */
    List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address);

    /** The ServiceLoadBalancers whose {@code spec.externalNetwork} is this name. */
    List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network);

    /** The ExternalNetworks whose {@code spec.addressPools} lists this pool. */
    List<ExternalNetwork> externalNetworksListingPool(String pool);

    /**
     * The ExternalNetworks marked {@code juneau.loutres.me/default-network: "true"} (docs/api-reference.md, "The
     * default network"): one, or none; more only when stored around the webhook.
     */
    List<ExternalNetwork> defaultNetworks();

    /** The ARPAdvertisements whose {@code spec.address} is this address. */
    List<ARPAdvertisement> arpAdvertisementsAt(long address);

    /** The entries of stored pools that share an address with the range. */
    List<PoolEntryRef> poolEntriesOverlapping(AddressRange range);

    /** Node InternalIPs inside the range, as (one-address range, Node name), by address. */
    List<RangeIndex.Hit<String>> nodeInternalIpsIn(AddressRange range);

    /** Ranges the cluster says it uses (ServiceCIDRs, Nodes' podCIDRs) that share an address with the range. */
    List<LearntRange> learntRangesOverlapping(AddressRange range);

    /** The names of one kind, sorted, for a denial that lists what exists (never on an allowed review). */
    List<String> names(NamedKind kind);

    /** The kinds whose names a denial lists. */
    enum NamedKind { ADDRESS_POOL, EXTERNAL_NETWORK, NODE }
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

    /**
     * The labels of the Namespace {@code name} (empty map when it has none), empty when the view does not know that
     * Namespace: who may use an ExternalNetwork reads them ({@code policy/NetworkAccess}). Only names and labels are
     * kept of Namespaces.
     */
    Optional<Map<String, String>> namespaceLabels(String name);

    /**
     * Why the value of {@code key} in the Secret {@code name} of juneau-system cannot be a BGPPeer's password
     * ({@code bgp/Md5PasswordRule}: e.g. {@code is 96 bytes long}); empty when it can, or when there is no such Secret
     * or key. The view keeps this verdict as the Secret arrives, never the value.
     */
    Optional<String> systemSecretPasswordProblem(String name, String key);
}
