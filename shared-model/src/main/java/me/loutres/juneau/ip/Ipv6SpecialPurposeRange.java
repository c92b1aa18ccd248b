package me.loutres.juneau.ip;

import java.util.List;
import java.util.Optional;

/**
 * IPv6 ranges that can never be a VIP (docs/admission.md, "Addresses that are never VIPs"), the counterpart of
 * {@link SpecialPurposeRange}: a pool entry overlapping one is refused, and so is a requested IP inside one. The
 * documentation prefix 2001:db8::/32 and unique-local fc00::/7 are not among them: labs and private networks use
 * them, as TEST-NETs and RFC 1918 addresses for IPv4.
 */
public record Ipv6SpecialPurposeRange(String cidr, IpRange range, String what) {

    public static final List<Ipv6SpecialPurposeRange> ALL = List.of(
            of("::/128", "the unspecified address, a source address only"),
            of("::1/128", "loopback: as a VIP, kube-proxy would capture every node's own traffic to that address and port"),
            of("::ffff:0:0/96", "IPv4-mapped: these stand for IPv4 addresses; put the IPv4 address in the pool instead"),
            of("64:ff9b::/96", "the NAT64 well-known prefix: a translator's view of IPv4 addresses"),
            of("100::/64", "discard-only (RFC 6666): traffic to it is dropped on purpose"),
            of("fe80::/10", "link-local: never routed beyond one link"),
            of("ff00::/8", "multicast: not a unicast address"));

    private static Ipv6SpecialPurposeRange of(String cidr, String what) {
        int slash = cidr.indexOf('/');
        IpAddress base = Ipv6.parse(cidr.substring(0, slash));
        int prefix = Integer.parseInt(cidr.substring(slash + 1));
        return new Ipv6SpecialPurposeRange(cidr, new IpRange(base.masked(prefix), base.lastOfPrefix(prefix)), what);
    }

    /** The special-purpose range holding the address, if any. */
    public static Optional<Ipv6SpecialPurposeRange> containing(IpAddress address) {
        return ALL.stream().filter(r -> r.range().contains(address)).findFirst();
    }

    /** {@code fe80::/10 (link-local: ...)}: how a denial names it. */
    public String describe() {
        return cidr + " (" + what + ")";
    }
}
