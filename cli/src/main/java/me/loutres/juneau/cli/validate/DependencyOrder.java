package me.loutres.juneau.cli.validate;

import java.util.Comparator;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The order a cluster sees objects created in: kinds without Juneau rules first (Namespaces and the like), then
 * NodeNetwork (what the nodes report: a pool holding a node's address or gateway is refused), AddressPool, BFDProfile, BGPPeer (after the Secrets it names), ExternalNetwork, Node, ServiceLoadBalancer,
 * ARPAdvertisement, BGPSession, Service; file order within a kind.
 */
final class DependencyOrder {
    private static final List<String> ORDER = List.of(
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_NODE_NETWORK,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ADDRESS_POOL,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BFD_PROFILE,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_PEER,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_EXTERNAL_NETWORK,
            "/Node",
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_SERVICE_LOAD_BALANCER,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ARP_ADVERTISEMENT,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_SESSION,
            "/Service");

    private DependencyOrder() {
    }

    static int rank(ManifestObject o) {
        return ORDER.indexOf(o.group() + "/" + o.kind()) + 1; // other kinds: 0
    }

    /** A stable sort by rank, each object's rank computed once (not twice per comparison). */
    static List<ManifestObject> sort(List<ManifestObject> objects) {
        List<List<ManifestObject>> byRank = new java.util.ArrayList<>();
        for (int i = 0; i <= ORDER.size(); i++) {
            byRank.add(new java.util.ArrayList<>());
        }
        List<ManifestObject> inOrder = new java.util.ArrayList<>(objects);
        inOrder.sort(Comparator.comparingInt(ManifestObject::order));
        for (ManifestObject o : inOrder) {
            byRank.get(rank(o)).add(o);
        }
        List<ManifestObject> sorted = new java.util.ArrayList<>(objects.size());
        byRank.forEach(sorted::addAll);
        return sorted;
    }
}
