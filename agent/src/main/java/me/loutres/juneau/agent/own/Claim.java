package me.loutres.juneau.agent.own;

import me.loutres.juneau.ip.Ipv4;

/**
 * One VIP this node must answer for, as read from its ARPAdvertisement.
 *
 * @param vip              the address
 * @param advertisement    the ARPAdvertisement's name
 * @param generation       its metadata.generation (status.observedGeneration)
 * @param serviceNamespace the Service it announces (from its labels; "" when unlabelled)
 * @param serviceName      ditto
 * @param serviceUid       the Service's metadata.uid from the advertisement's uid label; null when unlabelled
 */
public record Claim(long vip, String advertisement, long generation, String serviceNamespace, String serviceName,
                    String serviceUid) {
    /** A claim whose advertisement names no Service uid. */
    public Claim(long vip, String advertisement, long generation, String serviceNamespace, String serviceName) {
        this(vip, advertisement, generation, serviceNamespace, serviceName, null);
    }

    public String vipText() {
        return Ipv4.format(vip);
    }

    public boolean hasService() {
        return !serviceNamespace.isEmpty() && !serviceName.isEmpty();
    }
}
