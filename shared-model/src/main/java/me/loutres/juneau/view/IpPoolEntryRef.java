package me.loutres.juneau.view;

import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.IpPoolEntry;

/** One parsed entry of a stored AddressPool, of either family: {@code spec.addresses[index]}, as written and as parsed. */
public record IpPoolEntryRef(AddressPool pool, int index, String text, IpPoolEntry entry) {
    public String poolName() {
        return pool.getMetadata().getName();
    }
}
