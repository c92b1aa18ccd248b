package me.loutres.juneau.agent.bgp;

import java.util.List;

/**
 * One BGP session of this node: a BGPPeer that applies to it.
 *
 * @param peer             the BGPPeer's name
 * @param address          peerAddress
 * @param peerAs           peerASN
 * @param localAs          myASN
 * @param port             peerPort
 * @param holdSeconds      hold time in seconds (0: no keepalives, as BGP allows)
 * @param keepaliveSeconds keepalive time in seconds, null for BIRD's default (a third of the hold time)
 * @param multihop         ebgpMultiHop
 * @param sourceAddress    the local address of the session, null for the route's
 * @param password         the TCP MD5 password, null for none
 * @param bfd              the BFD timing, null for no BFD
 * @param networks         the ExternalNetworks whose routes this peer is sent (sorted)
 */
public record Neighbor(String peer, String address, long peerAs, long localAs, int port, int holdSeconds,
                       Integer keepaliveSeconds, boolean multihop, String sourceAddress, String password,
                       BfdTiming bfd, List<String> networks) {
    public Neighbor {
        networks = networks.stream().sorted().distinct().toList();
    }

    /** iBGP: both ends in one AS; only then is LOCAL_PREF sent (RFC 4271 §5.1.5). */
    public boolean internal() {
        return peerAs == localAs;
    }

    @Override
    public String toString() {
        // never the password: this record reaches logs and test failure messages
        return "Neighbor[" + peer + " " + address + ":" + port + " AS" + peerAs + " local AS" + localAs + "]";
    }
}
