package me.loutres.juneau.bgp;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;

/**
 * The addresses a BGP session's routes cover, as a BGPSession's {@code status.carriedAddresses} says them (docs/bgp.md,
 * "Status"): the agent writes the routes of the configuration its BIRD accepted and runs, merged into ranges
 * ({@code 198.18.100.10-198.18.100.14}, one address alone as {@code 198.18.100.7}); the controller names a node in a
 * ServiceLoadBalancer's {@code Announced} only when one of its sessions covers the VIP. Merged, a pool's Services make
 * a few entries, not one per route: allocation fills a pool from its start.
 */
public final class CarriedAddresses {
    private CarriedAddresses() {
    }

    /** The ranges merged (overlapping or adjacent ones joined), sorted, as status entries. */
    public static List<String> of(Collection<AddressRange> ranges) {
        List<AddressRange> sorted = ranges.stream().sorted().toList();
        List<String> out = new ArrayList<>();
        AddressRange run = null;
        for (AddressRange r : sorted) {
            if (run != null && r.first() <= run.last() + 1) {
                run = new AddressRange(run.first(), Math.max(run.last(), r.last()));
            } else {
                if (run != null) {
                    out.add(run.toString());
                }
                run = r;
            }
        }
        if (run != null) {
            out.add(run.toString());
        }
        return out;
    }

    /**
     * Whether {@code entries} (a status's list) cover {@code vip}. An entry that does not read as an IPv4 address or
     * range covers nothing, and neither does a list for a VIP that is no IPv4 address: the session is then not
     * counted as carrying it.
     */
    public static boolean covers(List<String> entries, String vip) {
        if (entries == null || vip == null || !Ipv4.isValid(vip)) {
            return false;
        }
        long address = Ipv4.parse(vip);
        for (String e : entries) {
            if (e == null) {
                continue;
            }
            int dash = e.indexOf('-');
            String first = dash < 0 ? e : e.substring(0, dash);
            String last = dash < 0 ? e : e.substring(dash + 1);
            if (Ipv4.isValid(first) && Ipv4.isValid(last) && Ipv4.parse(first) <= address
                    && address <= Ipv4.parse(last)) {
                return true;
            }
        }
        return false;
    }
}
