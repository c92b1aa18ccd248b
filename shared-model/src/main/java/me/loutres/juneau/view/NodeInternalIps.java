package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.ip.Ipv4;

/**
 * The one reader of Node InternalIPs (admission, allocation, {@code validate}, {@code plan}): {@code status.addresses}
 * of type {@code InternalIP}, trimmed, IPv4 only (an IPv6 InternalIP cannot collide with an IPv4 VIP).
 */
public final class NodeInternalIps {
    private NodeInternalIps() {
    }

    /** address -> node name, in node order; when two nodes claim an address the first keeps it. */
    public static Map<Long, String> byAddress(Collection<Node> nodes) {
        Map<Long, String> out = new LinkedHashMap<>();
        if (nodes == null) {
            return out;
        }
        for (Node node : nodes) {
            if (node == null || node.getStatus() == null || node.getStatus().getAddresses() == null) {
                continue;
            }
            String name = node.getMetadata() == null ? null : node.getMetadata().getName();
            for (NodeAddress a : node.getStatus().getAddresses()) {
                if (a == null || !"InternalIP".equals(a.getType()) || a.getAddress() == null) {
                    continue;
                }
                String text = a.getAddress().trim();
                if (Ipv4.isValid(text)) {
                    out.putIfAbsent(Ipv4.parse(text), name);
                }
            }
        }
        return out;
    }

    /** The addresses only. */
    public static Set<Long> addresses(Collection<Node> nodes) {
        return Set.copyOf(byAddress(nodes).keySet());
    }
}
