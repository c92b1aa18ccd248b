package me.loutres.juneau.agent.plan;

import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.own.Ipv6Claim;

/**
 * What the node does about one IPv6 VIP it owns (from {@link ArpPlanner#planIpv6}): answer Neighbor Solicitations
 * for it on one interface, or report why it cannot (docs/ndp.md). The IPv6 twin of {@link ArpAnswer}.
 */
public sealed interface NdpAnswer {
    Ipv6Claim claim();

    /** Answer NDP for the VIP on {@code iface} (and send its unsolicited advertisements there). */
    record Answer(Ipv6Claim claim, InterfaceInfo iface) implements NdpAnswer {
    }

    /** No interface may answer it: status {@code Announced=False InterfaceNotFound} with {@code message}. */
    record NoInterface(Ipv6Claim claim, String message) implements NdpAnswer {
    }
}
