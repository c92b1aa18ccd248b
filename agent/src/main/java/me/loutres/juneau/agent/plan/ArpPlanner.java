package me.loutres.juneau.agent.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import me.loutres.juneau.agent.net.InterfaceChooser;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.agent.own.Ipv6Claim;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.IpAddress;

/**
 * Which interface answers each VIP the node owns (docs/api-reference.md, ExternalNetwork {@code spec.arp.interfaces};
 * README.md, "How a VIP answers"). Pure: the owned VIPs, the node's view, its interfaces and {@code --interface} in,
 * one {@link ArpAnswer} per VIP out.
 *
 * <ul>
 *   <li>A network without {@code spec.arp.interfaces}: the node-wide rule of {@link InterfaceChooser} (the interface
 *       whose prefix contains the VIP, among {@code --interface} when given).</li>
 *   <li>A network that lists interfaces: only those answer (also narrowed by {@code --interface} when given). The
 *       same rule picks among the listed interfaces present on the node; a single one answers even a VIP outside its
 *       prefixes (the operator said where the network is). None of them on the node: {@code InterfaceNotFound},
 *       naming what is missing and what the node has.</li>
 *   <li>A network the agent does not know (deleted meanwhile): the node-wide rule; nothing restricts it.</li>
 * </ul>
 */
public final class ArpPlanner {
    private ArpPlanner() {
    }

    public static SortedMap<Long, ArpAnswer> plan(SortedMap<Long, Claim> owned, NodeView v,
            List<InterfaceInfo> interfaces, List<String> agentInterfaces) {
        Rules rules = new Rules(v, interfaces, agentInterfaces);
        SortedMap<Long, ArpAnswer> out = new TreeMap<>();
        for (Claim c : owned.values()) {
            InterfaceChooser.Choice choice = rules.choose(c.advertisement(), IpAddress.ipv4(c.vip()));
            out.put(c.vip(), choice instanceof InterfaceChooser.Chosen chosen ? new ArpAnswer.Answer(c, chosen.iface())
                    : new ArpAnswer.NoInterface(c, ((InterfaceChooser.NotFound) choice).message()));
        }
        return out;
    }

    /**
     * The same rule for the IPv6 VIPs the node answers NDP for (docs/ndp.md): {@code spec.arp.interfaces}, else the
     * interface with a global or unique-local IPv6 prefix containing the VIP.
     */
    public static SortedMap<IpAddress, NdpAnswer> planIpv6(SortedMap<IpAddress, Ipv6Claim> owned, NodeView v,
            List<InterfaceInfo> interfaces, List<String> agentInterfaces) {
        Rules rules = new Rules(v, interfaces, agentInterfaces);
        SortedMap<IpAddress, NdpAnswer> out = new TreeMap<>();
        for (Ipv6Claim c : owned.values()) {
            InterfaceChooser.Choice choice = rules.choose(c.advertisement(), c.vip());
            out.put(c.vip(), choice instanceof InterfaceChooser.Chosen chosen ? new NdpAnswer.Answer(c, chosen.iface())
                    : new NdpAnswer.NoInterface(c, ((InterfaceChooser.NotFound) choice).message()));
        }
        return out;
    }

    /** The node's networks and interfaces, read once per plan. */
    private static final class Rules {
        private final Map<String, String> networkOf = new HashMap<>();
        private final Map<String, List<String>> listed = new HashMap<>();
        private final InterfaceChooser nodeWide;
        private final NodeView v;
        private final List<InterfaceInfo> interfaces;
        private final List<String> agentInterfaces;

        Rules(NodeView v, List<InterfaceInfo> interfaces, List<String> agentInterfaces) {
            this.v = v;
            this.interfaces = interfaces;
            this.agentInterfaces = agentInterfaces;
            for (ARPAdvertisement a : v.advertisements()) {
                if (a.getMetadata() != null && a.getSpec() != null && a.getSpec().getExternalNetwork() != null) {
                    networkOf.put(a.getMetadata().getName(), a.getSpec().getExternalNetwork());
                }
            }
            for (ExternalNetwork n : v.networks()) {
                if (n.getSpec() != null && n.getSpec().getArp() != null && n.getSpec().getArp().getInterfaces() != null
                        && !n.getSpec().getArp().getInterfaces().isEmpty()) {
                    listed.put(n.getMetadata().getName(), List.copyOf(n.getSpec().getArp().getInterfaces()));
                }
            }
            this.nodeWide = new InterfaceChooser(agentInterfaces);
        }

        InterfaceChooser.Choice choose(String advertisement, IpAddress vip) {
            String network = networkOf.get(advertisement);
            List<String> names = network == null ? null : listed.get(network);
            return names == null ? nodeWide.choose(vip, interfaces)
                    : listedChoice(vip, network, names, v.node(), interfaces, agentInterfaces);
        }
    }

    private static InterfaceChooser.Choice listedChoice(IpAddress vip, String network, List<String> names, String node,
            List<InterfaceInfo> interfaces, List<String> agentInterfaces) {
        String field = "spec.arp.interfaces of ExternalNetwork " + network;
        List<String> allowed = agentInterfaces.isEmpty() ? names
                : names.stream().filter(agentInterfaces::contains).toList();
        if (allowed.isEmpty()) {
            return new InterfaceChooser.NotFound(field + " (" + String.join(", ", names) + ") and the agent's"
                    + " --interface (" + String.join(", ", agentInterfaces) + ") have no interface in common on node "
                    + node + "; list one of the node's interfaces in both");
        }
        List<String> present = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : allowed) {
            (interfaces.stream().anyMatch(i -> i.name().equals(name)) ? present : missing).add(name);
        }
        if (present.isEmpty()) {
            String has = interfaces.stream().filter(i -> !i.loopback()).map(InterfaceInfo::name).sorted()
                    .collect(Collectors.joining(", "));
            return new InterfaceChooser.NotFound("interface " + String.join(", ", missing) + " (" + field + ")"
                    + (missing.size() == 1 ? " is" : " are") + " not on node " + node + " (its interfaces: "
                    + (has.isEmpty() ? "none" : has) + "); fix the list, or keep this node out with the network's"
                    + " spec.nodeSelector");
        }
        return new InterfaceChooser(present, field, "fix the list or the interface").choose(vip, interfaces);
    }
}
