package me.loutres.juneau.allocation;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpPoolEntry;

/**
 * A pool's address counts of one family (docs/dual-stack.md, "Pool counts"): {@code total} usable addresses,
 * {@code allocated}, {@code free = total - allocated}, each an int64 that saturates at {@link Long#MAX_VALUE}
 * (9223372036854775807) instead of overflowing: one /64 holds 2^64 - 1 usable addresses. The sums are exact (128-bit
 * and more) before saturating, so {@code free} is never understated by a saturated {@code total}: a /64 with a
 * million addresses allocated still has more than {@code Long.MAX_VALUE} free.
 */
public record FamilyCounts(long total, long allocated, long free) {
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /**
     * The counts of each family of the entries (entries of one pool, overlapping none of each other, as admission
     * keeps them), with {@code allocated} addresses held per family; a family without entries is left out.
     */
    public static Map<IpFamily, FamilyCounts> of(List<IpPoolEntry> entries, Map<IpFamily, Long> allocated) {
        Map<IpFamily, BigInteger> totals = new EnumMap<>(IpFamily.class);
        for (IpPoolEntry e : entries) {
            totals.merge(e.family(), exactSize(e), BigInteger::add);
        }
        Map<IpFamily, FamilyCounts> out = new EnumMap<>(IpFamily.class);
        totals.forEach((family, total) -> {
            BigInteger held = BigInteger.valueOf(Math.max(0, allocated.getOrDefault(family, 0L)));
            out.put(family, new FamilyCounts(saturate(total), saturate(held), saturate(total.subtract(held).max(BigInteger.ZERO))));
        });
        return out;
    }

    /**
     * The per-family counts an AddressPool's {@code status} shows ({@code ipv4}, {@code ipv6}; docs/dual-stack.md):
     * none for a pool without an IPv6 entry (an IPv4-only pool's status stays as it was, SPEC §10), else one block
     * per family the pool holds. IPv4 is the allocator's {@code usage} (the top-level counts: node addresses and
     * reserved ranges left out); IPv6 counts the usable addresses of the pool's IPv6 entries that parse, with
     * {@code ipv6Allocated} of them held. Entries that do not parse offer nothing (the feed reports them).
     */
    public static Map<IpFamily, FamilyCounts> forStatus(AddressPool pool, PoolUsage usage, long ipv6Allocated) {
        String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
        List<String> texts = pool.getSpec() == null || pool.getSpec().getAddresses() == null ? List.of()
                : pool.getSpec().getAddresses();
        List<IpPoolEntry> v6 = new ArrayList<>();
        boolean v4 = false;
        for (String text : texts) {
            try {
                IpPoolEntry e = IpPoolEntry.parse(mode, text);
                if (e.family() == IpFamily.IPV6) {
                    v6.add(e);
                } else {
                    v4 = true;
                }
            } catch (InvalidAddressException e) {
                // offers no address: left out here, reported by the feed
            }
        }
        Map<IpFamily, FamilyCounts> out = new EnumMap<>(IpFamily.class);
        if (v6.isEmpty()) {
            return out;
        }
        if (v4) {
            out.put(IpFamily.IPV4, new FamilyCounts(Math.max(0, usage.total()), Math.max(0, usage.allocated()),
                    usage.free()));
        }
        out.putAll(of(v6, Map.of(IpFamily.IPV6, ipv6Allocated)));
        return out;
    }

    private static BigInteger exactSize(IpPoolEntry e) {
        var usable = e.usable();
        return unsigned128(usable.last().hi(), usable.last().lo())
                .subtract(unsigned128(usable.first().hi(), usable.first().lo())).add(BigInteger.ONE);
    }

    private static BigInteger unsigned128(long hi, long lo) {
        return new BigInteger(Long.toUnsignedString(hi)).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
    }

    private static long saturate(BigInteger v) {
        return v.compareTo(MAX) >= 0 ? Long.MAX_VALUE : v.longValueExact();
    }
}
