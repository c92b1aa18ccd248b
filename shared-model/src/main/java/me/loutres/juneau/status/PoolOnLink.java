package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpPoolEntry;
import me.loutres.juneau.ip.IpRange;
import me.loutres.juneau.selection.NodeEligibility;
import me.loutres.juneau.view.NodeNetworkAddresses;

/**
 * Condition {@code OnLink} of an {@code arp} AddressPool (docs/troubleshooting.md, "My pool is not on any node's
 * subnet"): an ARP or NDP answer for a VIP is only ever asked for on the VIP's own subnet, so every address range of
 * the pool must lie inside a prefix that some candidate node's interface has (as its agent reports it on its
 * NodeNetwork). True {@code OnNodeSubnet}; False {@code NotOnNodeSubnet} naming the entries no node can reach and the
 * candidate nodes' prefixes; no condition while no candidate node has reported. A {@code bgp} pool
 * gets none: its VIPs are routed, not on a subnet. Pure.
 */
public final class PoolOnLink {
    public static final String CONDITION_ON_LINK = "OnLink";
    public static final String REASON_ON_NODE_SUBNET = "OnNodeSubnet";
    public static final String REASON_NOT_ON_NODE_SUBNET = "NotOnNodeSubnet";

    /** A candidate node's prefix: {@code eth0 198.18.0.0/24}. */
    record Prefix(String node, String iface, IpRange range, String text) {
    }

    private PoolOnLink() {
    }

    /**
     * The condition, or null for a pool that is not {@code arp} or when no candidate node has reported its network.
     *
     * @param eligibility  which nodes may announce the pool's VIPs (its networks' node selectors and the exclude label)
     * @param nodeNetworks every NodeNetwork
     */
    public static Condition of(AddressPool pool, NodeEligibility eligibility, List<NodeNetwork> nodeNetworks) {
        if (pool.getSpec() == null || !JuneauConstants.MODE_ARP.equals(pool.getSpec().getAdvertiseMode())) {
            return null;
        }
        List<Prefix> prefixes = new ArrayList<>();
        Map<String, List<Prefix>> byNode = new TreeMap<>();
        for (NodeNetwork nn : nodeNetworks) {
            String node = NodeNetworkAddresses.node(nn);
            if (node == null || !eligibility.allows(node) || nn.getStatus() == null
                    || nn.getStatus().getInterfaces() == null) {
                continue;
            }
            List<Prefix> mine = byNode.computeIfAbsent(node, n -> new ArrayList<>());
            for (NodeInterface i : nn.getStatus().getInterfaces()) {
                if (i == null || i.getAddresses() == null) {
                    continue;
                }
                for (String text : i.getAddresses()) {
                    Prefix p = prefix(node, i.getName(), text);
                    if (p != null) {
                        prefixes.add(p);
                        mine.add(p);
                    }
                }
            }
        }
        Condition c = new Condition();
        c.setType(CONDITION_ON_LINK);
        if (byNode.isEmpty()) {
            return null; // nothing known yet (no agent reports, or an older release's): no verdict, no false alarm
        }
        List<String> entries = pool.getSpec().getAddresses() == null ? List.of() : pool.getSpec().getAddresses();
        List<String> off = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            IpPoolEntry entry;
            try {
                entry = IpPoolEntry.parse(JuneauConstants.MODE_ARP, entries.get(i));
            } catch (InvalidAddressException e) {
                continue; // reported as a malformed entry
            }
            IpRange r = entry.range();
            boolean onLink = prefixes.stream().anyMatch(p -> p.range().contains(r.first()) && p.range().contains(r.last()));
            if (!onLink) {
                off.add("spec.addresses[" + i + "] \"" + entries.get(i) + "\"");
            }
        }
        if (off.isEmpty()) {
            c.setStatus("True");
            c.setReason(REASON_ON_NODE_SUBNET);
            c.setMessage("every entry lies inside a prefix of a node that may announce it");
        } else {
            List<String> nodes = new ArrayList<>();
            byNode.forEach((node, ps) -> nodes.add(node + ": " + (ps.isEmpty() ? "no address"
                    : String.join(", ", ps.stream().map(p -> p.iface() + " " + p.text()).distinct().toList()))));
            c.setStatus("False");
            c.setReason(REASON_NOT_ON_NODE_SUBNET);
            c.setMessage(String.join(", ", off) + (off.size() == 1 ? " lies" : " lie") + " in no prefix of the"
                    + " nodes that may announce this pool (" + String.join("; ", nodes) + "); no ARP or NDP request"
                    + " for these addresses would ever reach a node, so a VIP there gets no traffic");
        }
        return c;
    }

    /** {@code 198.18.0.5/24} as the prefix 198.18.0.0/24; null when unreadable. */
    private static Prefix prefix(String node, String iface, String text) {
        if (text == null || !text.contains("/")) {
            return null;
        }
        try {
            IpAddress a = IpAddress.parse(text.substring(0, text.indexOf('/')).trim());
            int len = Integer.parseInt(text.substring(text.indexOf('/') + 1).trim());
            int max = a.family() == me.loutres.juneau.ip.IpFamily.IPV4 ? 32 : 128;
            if (len < 0 || len > max) {
                return null;
            }
            return new Prefix(node, iface, new IpRange(a.masked(len), a.lastOfPrefix(len)), a.masked(len) + "/" + len);
        } catch (InvalidAddressException | NumberFormatException e) {
            return null;
        }
    }

    /** {@code previous} with the OnLink condition replaced (dropped when {@code onLink} is null). */
    public static List<Condition> with(List<Condition> previous, Condition onLink, String now) {
        List<Condition> out = new ArrayList<>();
        Condition before = null;
        for (Condition p : previous == null ? List.<Condition>of() : previous) {
            if (p == null) {
                continue;
            }
            if (CONDITION_ON_LINK.equals(p.getType())) {
                before = p;
            } else {
                out.add(p);
            }
        }
        if (onLink != null) {
            onLink.setLastTransitionTime(before != null && Objects.equals(before.getStatus(), onLink.getStatus())
                    && before.getLastTransitionTime() != null ? before.getLastTransitionTime() : now);
            out.add(onLink);
        }
        return out;
    }
}
