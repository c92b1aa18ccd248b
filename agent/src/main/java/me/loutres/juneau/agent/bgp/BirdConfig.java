package me.loutres.juneau.agent.bgp;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Everything this node's BIRD must do, as plain data: the sessions and the routes. The agent's plan produces it; {@link
 * BirdConfigRenderer} turns it into BIRD's configuration text. Lists are kept sorted so that one model has exactly one
 * text (a changed text is a real change, and BIRD is told only then).
 *
 * @param routerId  the BGP identifier (the Node's InternalIP, or {@code --router-id})
 * @param neighbors one BGP session per peer that applies to this node, by peer name
 * @param networks  the routes, per ExternalNetwork, by network name
 */
public record BirdConfig(String routerId, List<Neighbor> neighbors, List<NetworkRoutes> networks) {
    public BirdConfig {
        Objects.requireNonNull(routerId, "routerId");
        neighbors = neighbors.stream().sorted(Comparator.comparing(Neighbor::peer)).toList();
        networks = networks.stream().sorted(Comparator.comparing(NetworkRoutes::network)).toList();
    }

    /** Same sessions, no routes: what SIGTERM applies before BIRD stops (docs/bgp.md). */
    public BirdConfig withoutRoutes() {
        return new BirdConfig(routerId, neighbors,
                networks.stream().map(n -> new NetworkRoutes(n.network(), List.of(), n.communities(), n.localPref()))
                        .toList());
    }

    /** The routes a neighbor is sent: those of the networks it exports. */
    public long routesFor(Neighbor neighbor) {
        return networks.stream().filter(n -> neighbor.networks().contains(n.network()))
                .mapToLong(n -> n.prefixes().size()).sum();
    }
}
