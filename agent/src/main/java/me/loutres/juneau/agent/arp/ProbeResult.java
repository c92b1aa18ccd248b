package me.loutres.juneau.agent.arp;

/**
 * How a probe of a VIP before its first announcement ended. The seam between the wire and the driver: the ARP probe
 * ({@link ProbeDecision}, RFC 5227) produces it today, IPv6 Duplicate Address Detection will produce the same.
 */
public sealed interface ProbeResult {
    long vip();

    /** Nobody answered within the probe's time: the VIP may be announced. */
    record Free(long vip) implements ProbeResult {
    }

    /** A station that is not a cluster node answered (or probed too): the VIP must not be announced. */
    record InUse(long vip, MacAddress other, String iface) implements ProbeResult {
    }

    /** The probe stopped before its end (its interface changed or closed, the agent paused): probe again. */
    record Interrupted(long vip) implements ProbeResult {
    }
}
