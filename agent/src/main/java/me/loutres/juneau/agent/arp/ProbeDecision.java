package me.loutres.juneau.agent.arp;

import java.util.Set;

/**
 * What one received ARP frame means for the addresses being probed before their first announcement (RFC 5227,
 * 2.1.1; docs/troubleshooting.md, "My VIP conflicts with another device"). Pure: the frame, the VIPs being probed on
 * that interface, the interface's MAC and the MACs known to be the cluster's own nodes in; a decision out.
 *
 * <p>A station other than a cluster node that says "VIP is at me" (a reply to our probe, its own gratuitous ARP, any
 * ARP packet with sender IP = VIP), or that probes the same VIP at the same time (sender IP 0.0.0.0, target = VIP),
 * holds or is taking the address: the VIP must not be announced. A cluster node's MAC is not a conflict: it is the
 * previous owner still handing the VIP over. IPv6 Duplicate Address Detection plugs in beside this with its own
 * decision over Neighbor Solicitations and Advertisements, producing the same {@link ProbeResult}.
 */
public sealed interface ProbeDecision {
    /** {@code other} uses (or is probing for) {@code vip}. */
    record InUse(long vip, MacAddress other) implements ProbeDecision {
    }

    /** Nothing about a probed VIP from a foreign station. */
    record Ignore() implements ProbeDecision {
    }

    ProbeDecision IGNORE = new Ignore();

    static ProbeDecision decide(ArpFrame frame, Set<Long> probing, MacAddress ourMac, Set<MacAddress> clusterMacs) {
        if (probing.isEmpty() || frame.senderMac().equals(ourMac) || frame.ethernetSource().equals(ourMac)) {
            return IGNORE; // our own probes, looped back by the packet socket
        }
        if (clusterMacs.contains(frame.senderMac()) || clusterMacs.contains(frame.ethernetSource())) {
            return IGNORE; // a node of the cluster: the VIP's previous owner, handing it over
        }
        if (probing.contains(frame.senderIp())) {
            return new InUse(frame.senderIp(), frame.senderMac());
        }
        if (frame.isProbe() && probing.contains(frame.targetIp())) {
            return new InUse(frame.targetIp(), frame.senderMac()); // someone else probes it now: neither may take it
        }
        return IGNORE;
    }
}
