package me.loutres.juneau.ip;

import java.util.List;
import java.util.Optional;

/**
 * IPv4 ranges that can never be a VIP, whatever the cluster (docs/admission.md, "Addresses that are never VIPs"): a
 * pool entry overlapping one is refused, and so is a requested IP inside one.
 */
public record SpecialPurposeRange(String cidr, AddressRange range, String what) {

    public static final List<SpecialPurposeRange> ALL = List.of(
            of("0.0.0.0/8", 0L, 8, "\"this network\", a source address only"),
            of("127.0.0.0/8", 127L << 24, 8, "loopback: as a VIP, kube-proxy would capture every node's own traffic "
                    + "to that address and port"),
            of("169.254.0.0/16", (169L << 24) | (254L << 16), 16, "link-local: never routed beyond one link"),
            of("224.0.0.0/4", 224L << 24, 4, "multicast: not a unicast address"),
            of("240.0.0.0/4", 240L << 24, 4, "reserved for future use, with the broadcast address 255.255.255.255"));

    private static SpecialPurposeRange of(String cidr, long first, int prefix, String what) {
        long size = 1L << (32 - prefix);
        return new SpecialPurposeRange(cidr, new AddressRange(first, first + size - 1), what);
    }

    /** The special-purpose range holding the address, if any. */
    public static Optional<SpecialPurposeRange> containing(long address) {
        return ALL.stream().filter(r -> r.range().contains(address)).findFirst();
    }

    /** {@code 127.0.0.0/8 (loopback: ...)}: how a denial names it. */
    public String describe() {
        return cidr + " (" + what + ")";
    }
}
