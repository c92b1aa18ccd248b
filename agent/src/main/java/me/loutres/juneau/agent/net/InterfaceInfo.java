package me.loutres.juneau.agent.net;

import java.util.List;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.Ipv4;

/**
 * A network interface as the agent sees it: name, kernel index, MAC, its IPv4 prefixes and its global or
 * unique-local IPv6 prefixes (link-local ones never contain a VIP and are left out).
 *
 * @param up whether the link is administratively and operationally up
 */
public record InterfaceInfo(String name, int index, MacAddress mac, List<Prefix> prefixes, boolean up,
                            boolean loopback, List<Ipv6Prefix> ipv6Prefixes) {
    public InterfaceInfo {
        prefixes = List.copyOf(prefixes);
        ipv6Prefixes = List.copyOf(ipv6Prefixes);
    }

    /** An interface without IPv6 prefixes. */
    public InterfaceInfo(String name, int index, MacAddress mac, List<Prefix> prefixes, boolean up, boolean loopback) {
        this(name, index, mac, prefixes, up, loopback, List.of());
    }

    /** An IPv6 address and prefix length configured on an interface, e.g. 2001:db8::11/64. */
    public record Ipv6Prefix(IpAddress address, int length) {
        public Ipv6Prefix {
            if (address.family() != IpFamily.IPV6 || length < 0 || length > 128) {
                throw new IllegalArgumentException("not an IPv6 prefix: " + address + "/" + length);
            }
        }

        public boolean contains(IpAddress ip) {
            return ip.family() == IpFamily.IPV6 && address.masked(length).equals(ip.masked(length));
        }

        @Override
        public String toString() {
            return address + "/" + length;
        }
    }

    /** True when one of the interface's IPv6 prefixes contains {@code ip}. */
    public boolean onLinkFor(IpAddress ip) {
        return ipv6Prefixes.stream().anyMatch(p -> p.contains(ip));
    }

    /** An IPv4 address and prefix length configured on an interface, e.g. 198.18.0.11/24. */
    public record Prefix(long address, int length) {
        public boolean contains(long ip) {
            long mask = Ipv4.mask(length);
            return (address & mask) == (ip & mask);
        }

        @Override
        public String toString() {
            return Ipv4.format(address) + "/" + length;
        }
    }

    /** True when one of the interface's IPv4 prefixes contains {@code ip}. */
    public boolean onLinkFor(long ip) {
        return prefixes.stream().anyMatch(p -> p.contains(ip));
    }
}
