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
 * @param serviceUid       the Service's metadata.uid from the advertisement's uid label; null when unlabelled
 */
public record Ipv6Claim(IpAddress vip, String advertisement, long generation, String serviceNamespace,
                        String serviceName, String serviceUid) {
    /** A claim whose advertisement names no Service uid. */
    public Ipv6Claim(IpAddress vip, String advertisement, long generation, String serviceNamespace,
            String serviceName) {
        this(vip, advertisement, generation, serviceNamespace, serviceName, null);
    }

    public String vipText() {
        return vip.toString();
    }

    public boolean hasService() {
        return !serviceNamespace.isEmpty() && !serviceName.isEmpty();
    }
}
