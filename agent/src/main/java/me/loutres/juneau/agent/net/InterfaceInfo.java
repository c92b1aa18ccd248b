package me.loutres.juneau.agent.net;

import java.util.List;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.Ipv4;

/**
 * A network interface as the agent sees it: name, kernel index, MAC and its IPv4 prefixes.
 *
 * @param up whether the link is administratively and operationally up
 */
public record InterfaceInfo(String name, int index, MacAddress mac, List<Prefix> prefixes, boolean up,
                            boolean loopback) {
    public InterfaceInfo {
        prefixes = List.copyOf(prefixes);
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
