package me.loutres.juneau.agent.bgp;

import java.util.List;
import me.loutres.juneau.bgp.Community;

/**
 * The routes this node announces for one ExternalNetwork, with the network's attributes.
 *
 * @param network     the ExternalNetwork's name
 * @param prefixes    the prefixes (sorted by address, no duplicates), as IPv4 address and length
 * @param communities communities added to every route (in the network's order)
 * @param localPref   LOCAL_PREF for iBGP peers, null for BIRD's default
 */
public record NetworkRoutes(String network, List<Prefix> prefixes, List<Community> communities, Long localPref) {
    public NetworkRoutes {
        prefixes = prefixes.stream().distinct().sorted().toList();
        communities = List.copyOf(communities);
    }
}
