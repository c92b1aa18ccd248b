package me.loutres.juneau.view;

import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.PoolEntry;

/** One parsed entry of a stored AddressPool: {@code spec.addresses[index]}, as written and as parsed. */
public record PoolEntryRef(AddressPool pool, int index, String text, PoolEntry entry) {
    public String poolName() {
        return pool.getMetadata().getName();
    }
}
