package me.loutres.juneau.policy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.Ipv6;
import me.loutres.juneau.ip.Ipv6SpecialPurposeRange;
import me.loutres.juneau.ip.SpecialPurposeRange;

/**
 * The requested-ip annotation (docs/dual-stack.md): one address, or an IPv4 and an IPv6 address separated by a comma,
 * in either order. Each is a literal of its family; a zone id, the IPv4-mapped {@code ::ffff:a.b.c.d} and the
 * IPv4-compatible {@code ::a.b.c.d} forms are refused (they stand for IPv4 addresses, or for none), and so is an
 * address in a range that can never be a VIP.
 *
 * @param byFamily the addresses that read well, at most one per family, in the order written
 * @param problems one line per address that does not (the text and what is accepted)
 */
public record RequestedIps(Map<IpFamily, IpAddress> byFamily, List<String> problems) {
    public static final String ACCEPTED = "accepted: one address, or an IPv4 and an IPv6 address separated by a comma "
            + "(e.g. 192.0.2.10,2001:db8::10)";

    /**
     * Reads the trimmed annotation value; null is none.
     *
     * @param field how messages name the annotation
     */
    public static RequestedIps parse(String value, String field) {
        Map<IpFamily, IpAddress> byFamily = new EnumMap<>(IpFamily.class);
        List<String> problems = new ArrayList<>();
        if (value == null) {
            return new RequestedIps(byFamily, problems);
        }
        String[] parts = value.split(",", -1);
        if (parts.length > 2) {
            problems.add(field + ": \"" + value + "\" names " + parts.length + " addresses; " + ACCEPTED);
            return new RequestedIps(byFamily, problems);
        }
        for (String part : parts) {
            String text = part.trim();
            IpAddress a;
            try {
                a = IpAddress.parse(text);
            } catch (InvalidAddressException e) {
                problems.add(field + ": " + e.getMessage());
                continue;
            }
            Optional<String> refused = refused(a);
            if (refused.isPresent()) {
                problems.add(field + ": " + text + " " + refused.get());
                continue;
            }
            if (byFamily.containsKey(a.family())) {
                problems.add(field + ": \"" + value + "\" names two " + a.family() + " addresses; a Service has at "
                        + "most one VIP per family; " + ACCEPTED);
                continue;
            }
            byFamily.put(a.family(), a);
        }
        return new RequestedIps(byFamily, problems);
    }

    /** Why the address can never be a requested VIP, if it cannot. */
    private static Optional<String> refused(IpAddress a) {
        String instead = "; request a unicast address of the ExternalNetwork's pools, or remove the annotation to get one allocated";
        if (a.family() == IpFamily.IPV4) {
            return SpecialPurposeRange.containing(a.ipv4Value()).map(s -> "is in " + s.describe()
                    + ", which can never be a VIP" + instead);
        }
        if (Ipv6.isIpv4Mapped(a) || Ipv6.isIpv4Compatible(a)) {
            String v4 = me.loutres.juneau.ip.Ipv4.format(a.lo() & me.loutres.juneau.ip.Ipv4.MAX);
            return Optional.of("is the IPv4 address " + v4 + " written as IPv6 ("
                    + (Ipv6.isIpv4Mapped(a) ? "IPv4-mapped" : "IPv4-compatible") + "); request " + v4
                    + " itself for an IPv4 VIP, or an IPv6 address for an IPv6 one");
        }
        return Ipv6SpecialPurposeRange.containing(a).map(s -> "is in " + s.describe() + ", which can never be a VIP"
                + instead);
    }

    public Optional<IpAddress> of(IpFamily family) {
        return Optional.ofNullable(byFamily.get(family));
    }

    public boolean isEmpty() {
        return byFamily.isEmpty();
    }
}
