package me.loutres.juneau.agent.bgp;

/**
 * One piece of BIRD's configuration that BIRD refused and the agent left out (docs/bgp.md, "Troubleshooting"): a
 * peer's session (its protocol and export filter) or a network's routes (its static protocol and its part of every
 * export filter).
 *
 * @param kind   which sort of piece
 * @param name   the BGPPeer's or ExternalNetwork's name
 * @param reason BIRD's own words, e.g. {@code bird.conf:23:1 Multihop BGP with BFD requires specified local address}
 */
public record RefusedPiece(Kind kind, String name, String reason) {
    public enum Kind {
        PEER("BGPPeer"), NETWORK("ExternalNetwork");

        private final String objectKind;

        Kind(String objectKind) {
            this.objectKind = objectKind;
        }

        /** The Kubernetes kind the piece comes from, as a user names it. */
        public String objectKind() {
            return objectKind;
        }
    }

    /** The same piece with other words. */
    public RefusedPiece because(String words) {
        return new RefusedPiece(kind, name, words);
    }

    /** The configuration without this piece: a peer's session goes; a network's routes go from BIRD and every peer. */
    public BirdConfig dropFrom(BirdConfig config) {
        if (kind == Kind.PEER) {
            return new BirdConfig(config.routerId(),
                    config.neighbors().stream().filter(n -> !n.peer().equals(name)).toList(), config.networks());
        }
        return new BirdConfig(config.routerId(), config.neighbors().stream()
                .map(n -> n.networks().contains(name) ? withoutNetwork(n, name) : n).toList(),
                config.networks().stream().filter(n -> !n.network().equals(name)).toList());
    }

    private static Neighbor withoutNetwork(Neighbor n, String network) {
        return new Neighbor(n.peer(), n.address(), n.peerAs(), n.localAs(), n.port(), n.holdSeconds(),
                n.keepaliveSeconds(), n.multihop(), n.sourceAddress(), n.password(), n.bfd(),
                n.networks().stream().filter(x -> !x.equals(network)).toList());
    }

    /** What a user reads in a BGPSession's {@code lastError} or withheld network. */
    public String describe() {
        return "BIRD refused " + kind.objectKind() + " " + name + ", left out of this node's configuration: " + reason;
    }
}
