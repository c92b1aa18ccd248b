package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.NodeGateway;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpRange;

/**
 * The addresses a NodeNetwork reports (docs/api-reference.md, NodeNetwork): each default gateway and each interface address, as one-address
 * learnt ranges, so that admission refuses a pool entry holding one and the controller never hands one out, through
 * the one path that keeps ServiceCIDRs and podCIDRs out of pools ({@link LearntRange}, docs/admission.md). The source
 * names node, interface and address: {@code the default gateway 192.0.2.1 of node worker-1 (interface eth0)}.
 */
public final class NodeNetworkAddresses {
    /** One reported address: what it is, as a denial or a pool condition says it, and the address. */
    public record Reported(String source, IpAddress address) {
    }

    private NodeNetworkAddresses() {
    }

    /** Every gateway and interface address the NodeNetwork reports, gateways first, unreadable ones skipped. */
    public static List<Reported> of(NodeNetwork nn) {
        List<Reported> out = new ArrayList<>();
        String node = node(nn);
        if (nn == null || nn.getStatus() == null) {
            return out;
        }
        if (nn.getStatus().getGateways() != null) {
            for (NodeGateway g : nn.getStatus().getGateways()) {
                IpAddress a = g == null ? null : parse(g.getAddress());
                if (a != null) {
                    out.add(new Reported("the default gateway " + a + " of node " + node + " (interface "
                            + g.getInterfaceName() + ", NodeNetwork " + node + ")", a));
                }
            }
        }
        if (nn.getStatus().getInterfaces() != null) {
            for (NodeInterface i : nn.getStatus().getInterfaces()) {
                if (i == null || i.getAddresses() == null) {
                    continue;
                }
                for (String text : i.getAddresses()) {
                    IpAddress a = parse(text);
                    if (a != null) {
                        out.add(new Reported("the address " + a + " of node " + node + " interface " + i.getName()
                                + " (NodeNetwork " + node + ")", a));
                    }
                }
            }
        }
        return out;
    }

    /** The IPv4 ones, for the learnt-range index. */
    public static List<RangeIndex.Hit<LearntRange>> ipv4(NodeNetwork nn) {
        List<RangeIndex.Hit<LearntRange>> out = new ArrayList<>();
        for (Reported r : of(nn)) {
            if (r.address().family() == IpFamily.IPV4) {
                AddressRange range = AddressRange.single(r.address().ipv4Value());
                out.add(new RangeIndex.Hit<>(range, new LearntRange(r.source(), range)));
            }
        }
        return out;
    }

    /** The IPv6 ones, for the IPv6 learnt-range index. */
    public static List<WideRangeIndex.Hit<IpLearntRange>> ipv6(NodeNetwork nn) {
        List<WideRangeIndex.Hit<IpLearntRange>> out = new ArrayList<>();
        for (Reported r : of(nn)) {
            if (r.address().family() == IpFamily.IPV6) {
                IpRange range = IpRange.single(r.address());
                out.add(new WideRangeIndex.Hit<>(range, new IpLearntRange(r.source(), range)));
            }
        }
        return out;
    }

    /** The node a NodeNetwork is about: {@code spec.nodeName}, else its name. */
    public static String node(NodeNetwork nn) {
        if (nn == null) {
            return null;
        }
        if (nn.getSpec() != null && nn.getSpec().getNodeName() != null) {
            return nn.getSpec().getNodeName();
        }
        return nn.getMetadata() == null ? null : nn.getMetadata().getName();
    }

    /** {@code 192.0.2.5/24} or {@code 192.0.2.5}: the address; null when unreadable. */
    static IpAddress parse(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            return IpAddress.parse(slash < 0 ? t : t.substring(0, slash));
        } catch (InvalidAddressException e) {
            return null;
        }
    }
}
