package me.loutres.juneau.bgp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;

/**
 * An ExternalNetwork's {@code spec.bgp} on its own (docs/api-reference.md, ExternalNetwork): admission refuses what
 * {@link #problems} names; the agent reads the communities and the aggregation length of what it admitted through
 * {@link Communities#parse} and {@link #aggregationLength}.
 */
public final class NetworkBgpRules {
    public static final int DEFAULT_AGGREGATION_LENGTH = 32;
    public static final int MIN_AGGREGATION_LENGTH = 24;
    public static final long MAX_LOCAL_PREF = 4_294_967_295L;

    private NetworkBgpRules() {
    }

    public static List<String> problems(ExternalNetworkBgp bgp) {
        List<String> out = new ArrayList<>();
        if (bgp == null) {
            return out;
        }
        List<String> peers = bgp.getPeers() == null ? List.of() : bgp.getPeers();
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < peers.size(); i++) {
            Integer j = first.putIfAbsent(peers.get(i), i);
            if (j != null) {
                out.add("spec.bgp.peers[" + i + "]: " + PeerSpecRules.quote(peers.get(i))
                        + " is already listed at spec.bgp.peers[" + j + "]; list each BGPPeer once");
            }
        }
        List<String> communities = bgp.getCommunities() == null ? List.of() : bgp.getCommunities();
        for (int i = 0; i < communities.size(); i++) {
            String why = Communities.problem(communities.get(i));
            if (why != null) {
                out.add("spec.bgp.communities[" + i + "]: " + PeerSpecRules.quote(communities.get(i))
                        + " is not a community (" + why + "); " + Communities.ACCEPTED);
            }
        }
        Long pref = bgp.getLocalPref();
        if (pref != null && (pref < 0 || pref > MAX_LOCAL_PREF)) {
            out.add("spec.bgp.localPref: " + pref + " is out of range; accepted: 0 to 4294967295");
        }
        Integer length = bgp.getAggregationLength();
        if (length != null && (length < MIN_AGGREGATION_LENGTH || length > 32)) {
            out.add("spec.bgp.aggregationLength: " + length + " is out of range; accepted: 24 to 32"
                    + " (default 32: the VIP's own /32)");
        }
        return out;
    }

    /**
     * The prefix length routes are announced with: the default for an absent spec.bgp or length, and for one outside
     * 24-32 that was stored around admission ({@link #problems} names it).
     */
    public static int aggregationLength(ExternalNetworkBgp bgp) {
        Integer length = bgp == null ? null : bgp.getAggregationLength();
        return length == null || length < MIN_AGGREGATION_LENGTH || length > 32 ? DEFAULT_AGGREGATION_LENGTH : length;
    }
}
