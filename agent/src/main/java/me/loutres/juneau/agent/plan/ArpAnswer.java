package me.loutres.juneau.agent.plan;

import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.own.Claim;

/**
 * What the node does about one VIP it owns (the ARP half of its plan, from {@link ArpPlanner}): answer it on one
 * interface, or report why it cannot. The ARP driver only carries this out, as a port carries out an
 * {@link me.loutres.juneau.agent.arp.ArpDecision}.
 */
public sealed interface ArpAnswer {
    Claim claim();

    /** Answer ARP for the VIP on {@code iface} (and send its gratuitous ARP there). */
    record Answer(Claim claim, InterfaceInfo iface) implements ArpAnswer {
    }

    /** No interface may answer it: status {@code Announced=False InterfaceNotFound} with {@code message}. */
    record NoInterface(Claim claim, String message) implements ArpAnswer {
    }
}
