package me.loutres.juneau.agent.own;

import me.loutres.juneau.ip.IpAddress;

/**
 * One IPv6 VIP this node must answer Neighbor Solicitations for (docs/ndp.md), as read from its ARPAdvertisement
 * (the IPv6 one is named {@code slb-<namespace>-<name>-ipv6}); the IPv6 twin of {@link Claim}.
 *
 * @param vip              the address
 * @param advertisement    the ARPAdvertisement's name
 * @param generation       its metadata.generation (status.observedGeneration)
 * @param serviceNamespace the Service it announces (from its labels; "" when unlabelled)
 * @param serviceName      ditto
 */
public record Ipv6Claim(IpAddress vip, String advertisement, long generation, String serviceNamespace,
                        String serviceName) {
    public String vipText() {
        return vip.toString();
    }

    public boolean hasService() {
        return !serviceNamespace.isEmpty() && !serviceName.isEmpty();
    }
}
