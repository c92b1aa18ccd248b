package me.loutres.juneau.policy;

import java.util.EnumSet;
import java.util.Set;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpPoolEntry;

/** Which address families a pool holds: those of its entries that parse (docs/dual-stack.md). */
public final class PoolFamilies {
    private PoolFamilies() {
    }

    public static Set<IpFamily> of(AddressPool pool) {
        Set<IpFamily> out = EnumSet.noneOf(IpFamily.class);
        if (pool.getSpec() == null || pool.getSpec().getAddresses() == null) {
            return out;
        }
        for (String text : pool.getSpec().getAddresses()) {
            try {
                out.add(IpPoolEntry.parse(pool.getSpec().getAdvertiseMode(), text).family());
            } catch (InvalidAddressException e) {
                // the pool's own review reports it; it offers no address of any family
            }
        }
        return out;
    }

    /** {@code IPv4}, {@code IPv4, IPv6}, or {@code no valid entries}: how a message says what a pool holds. */
    public static String describe(Set<IpFamily> families) {
        return families.isEmpty() ? "no valid entries" : String.join(", ", families.stream().map(IpFamily::kubeName).toList());
    }

    /** {@code pool-a (IPv4)}: a pool and what it holds. */
    public static String describe(String pool, Set<IpFamily> families) {
        return pool + " (" + describe(families) + ")";
    }
}
