package me.loutres.juneau.agent.bgp;

import java.util.List;
import java.util.stream.Collectors;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;

/**
 * Why BIRD cannot reach a peer, from facts the node has, when BIRD itself says nothing (issue 41: the example peer
 * {@code tor-1}, not on a connected network and without {@code ebgpMultiHop}, sat Idle for ten minutes with an empty
 * lastError). Without multihop the agent renders {@code direct}: BIRD then waits, silently, for the peer's address to
 * be on one of the node's networks. With multihop it needs a route to it. Pure.
 */
public final class PeerReachability {
    private PeerReachability() {
    }

    /** What to check, or null when the facts show no problem (or are not known, or the address is not IPv4). */
    public static String hint(Neighbor neighbor, NodeReach reach) {
        long ip;
        try {
            ip = Ipv4.parse(neighbor.address());
        } catch (InvalidAddressException e) {
            return null; // an IPv6 peer: its facts are not read here yet
        }
        if (!neighbor.multihop()) {
            if (reach.interfaces() == null || reach.interfaces().stream().anyMatch(i -> i.up() && i.onLinkFor(ip))) {
                return null;
            }
            return "peer " + neighbor.address() + " is on no network of this node (" + prefixes(reach.interfaces())
                    + ") and the BGPPeer's spec.ebgpMultiHop is false, so BIRD waits for it on a connected network"
                    + " and says nothing; set spec.ebgpMultiHop: true if the router is further away, or correct"
                    + " spec.peerAddress";
        }
        if (reach.routes() == null || reach.routes().stream().anyMatch(r -> r.contains(ip))) {
            return null;
        }
        return "no route to peer " + neighbor.address() + " on this node (the kernel's routing table has none, not"
                + " even a default route); add a route to it, or correct the BGPPeer's spec.peerAddress";
    }

    private static String prefixes(List<InterfaceInfo> interfaces) {
        String list = interfaces.stream().filter(i -> i.up() && !i.loopback() && !i.prefixes().isEmpty())
                .map(i -> i.name() + " " + i.prefixes().stream().map(Object::toString)
                        .collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
        return list.isEmpty() ? "it has no IPv4 network up" : "its networks: " + list;
    }
}
