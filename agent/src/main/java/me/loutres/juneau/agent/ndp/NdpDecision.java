package me.loutres.juneau.agent.ndp;

import java.util.Set;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;

/**
 * What the NDP responder does with one received NS or NA on one interface (docs/ndp.md). Pure: the frame, the IPv6
 * VIPs this node owns on that interface and the interface's MAC in; a decision out.
 */
public sealed interface NdpDecision {
    /** Send {@code reply}: someone asked for a VIP we own (or probes it for Duplicate Address Detection). */
    record Answer(IpAddress vip, NdpFrame reply) implements NdpDecision {
    }

    /** Another station advertises a VIP we own: a conflict to report (we keep answering). */
    record Conflict(IpAddress vip, MacAddress other) implements NdpDecision {
    }

    /** Not ours to act on: another address, our own frame, a solicitation for an address we do not own. */
    record Ignore() implements NdpDecision {
    }

    NdpDecision IGNORE = new Ignore();

    static NdpDecision decide(NdpFrame frame, Set<IpAddress> owned, MacAddress ourMac) {
        if (frame.ethernetSource().equals(ourMac) || ourMac.equals(frame.linkLayer()) && frame.isAdvertisement()) {
            return IGNORE; // our own advertisements, looped back
        }
        if (frame.isAdvertisement()) {
            if (owned.contains(frame.target())) {
                return new Conflict(frame.target(), frame.linkLayer() != null ? frame.linkLayer()
                        : frame.ethernetSource());
            }
            return IGNORE;
        }
        if (!owned.contains(frame.target())) {
            return IGNORE; // never for an address not owned, DAD probes of other hosts' addresses included
        }
        if (!frame.isDuplicateAddressProbe() && frame.source().equals(frame.target())) {
            return IGNORE; // nonsense: a host asking for its own source address
        }
        return new Answer(frame.target(), frame.advertisementFrom(ourMac));
    }
}
