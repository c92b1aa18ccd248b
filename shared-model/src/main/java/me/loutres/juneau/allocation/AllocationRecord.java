package me.loutres.juneau.allocation;

import java.util.Objects;
import me.loutres.juneau.ip.Ipv4;

/**
 * One held address: the record of truth is {@code status.vip} + {@code status.addressPool} of a ServiceLoadBalancer.
 *
 * @param owner   {@code namespace/name} of the Service
 * @param pool    the AddressPool the address came from
 * @param address the IPv4 address as an unsigned 32-bit value
 */
public record AllocationRecord(String owner, String pool, long address) {

    public AllocationRecord {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(pool, "pool");
        if (address < 0 || address > Ipv4.MAX) {
            throw new IllegalArgumentException("not a 32-bit IPv4 address: " + address);
        }
    }

    @Override
    public String toString() {
        return owner + "=" + Ipv4.format(address) + "@" + pool;
    }
}
