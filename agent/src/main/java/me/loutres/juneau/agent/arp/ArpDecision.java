package me.loutres.juneau.agent.arp;

import java.util.Set;

/**
 * What the responder does with one received ARP frame on one interface. Pure: the frame, the VIPs this node owns on
 * that interface, and the interface's MAC in; a decision out.
 */
public sealed interface ArpDecision {
    /** Send {@code reply}: someone asked for a VIP we own. */
    record Answer(long vip, ArpFrame reply) implements ArpDecision {
    }

    /** Another station claims a VIP we own (its reply, or its gratuitous ARP): a conflict to report. */
    record Conflict(long vip, MacAddress other) implements ArpDecision {
    }

    /**
     * Another station now claims a VIP we are handing over (the new owner's gratuitous ARP): stop answering it at
     * once, so the two never answer together.
     */
    record HandedOver(long vip) implements ArpDecision {
    }

    /** Not ours to act on (another address, our own frame, a plain request from someone else). */
    record Ignore() implements ArpDecision {
    }

    ArpDecision IGNORE = new Ignore();

    static ArpDecision decide(ArpFrame frame, Set<Long> owned, MacAddress ourMac) {
        return decide(frame, owned, Set.of(), ourMac);
    }

    /**
     * @param handingOver VIPs this node no longer owns but still answers until their new owner speaks (a drain
     *                    without a blackout, docs/operations.md)
     */
    static ArpDecision decide(ArpFrame frame, Set<Long> owned, Set<Long> handingOver, MacAddress ourMac) {
        if (frame.senderMac().equals(ourMac) || frame.ethernetSource().equals(ourMac)) {
            return IGNORE; // our own replies and gratuitous ARPs, looped back by the packet socket
        }
        if (owned.contains(frame.senderIp())) {
            // a station says "VIP is at me": a reply, or a gratuitous request (spa == tpa); either way not us
            return new Conflict(frame.senderIp(), frame.senderMac());
        }
        if (handingOver.contains(frame.senderIp())) {
            return new HandedOver(frame.senderIp()); // the new owner speaks: it is its VIP now
        }
        if (frame.isRequest() && (owned.contains(frame.targetIp()) || handingOver.contains(frame.targetIp()))) {
            // also answers a duplicate-address probe (spa 0.0.0.0, RFC 5227): the VIP is taken, by us
            return new Answer(frame.targetIp(), frame.replyFrom(ourMac));
        }
        return IGNORE;
    }
}
