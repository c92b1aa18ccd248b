package me.loutres.juneau.allocation;

import java.math.BigInteger;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
