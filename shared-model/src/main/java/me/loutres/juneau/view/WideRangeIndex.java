package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpRange;

/**
 * {@link RangeIndex} over 128-bit addresses: the cluster view's "what overlaps this IPv6 range" index (docs/admission.md,
 * "Cost of a review"). A query reads only the ranges that start between {@code first - widest} and {@code last}, the
 * width kept as an exact 128-bit difference, so a /64 costs as much to find as a /120. Safe for one writer and many
 * readers.
 */
public final class WideRangeIndex<V> implements OwnedRanges<WideRangeIndex.Hit<V>> {
    /** One indexed range and what it stands for. */
    public record Hit<V>(IpRange range, V value) {
    }

    private final NavigableMap<IpAddress, List<Hit<V>>> byFirst = new TreeMap<>();
    private final Map<String, List<Hit<V>>> byOwner = new HashMap<>();
    // the widest range ever indexed, as last - first over 128 bits: never shrunk, so a correct (if loose) bound
    private long widestHi;
    private long widestLo;

    @Override
    public synchronized boolean replace(String owner, List<Hit<V>> hits) {
        if (hits.equals(byOwner.getOrDefault(owner, List.of()))) {
            return false;
        }
        remove(owner);
        if (hits.isEmpty()) {
            return true;
        }
        byOwner.put(owner, List.copyOf(hits));
        for (Hit<V> hit : hits) {
            byFirst.computeIfAbsent(hit.range().first(), f -> new ArrayList<>(1)).add(hit);
            IpAddress a = hit.range().first();
            IpAddress b = hit.range().last();
            long lo = b.lo() - a.lo();
            long hi = b.hi() - a.hi() - (Long.compareUnsigned(b.lo(), a.lo()) < 0 ? 1 : 0);
            if (Long.compareUnsigned(hi, widestHi) > 0 || (hi == widestHi && Long.compareUnsigned(lo, widestLo) > 0)) {
                widestHi = hi;
                widestLo = lo;
            }
        }
        return true;
    }

    @Override
    public synchronized boolean remove(String owner) {
        List<Hit<V>> old = byOwner.remove(owner);
        if (old == null) {
            return false;
        }
        for (Hit<V> hit : old) {
            List<Hit<V>> at = byFirst.get(hit.range().first());
            at.remove(hit);
            if (at.isEmpty()) {
                byFirst.remove(hit.range().first());
            }
        }
        return true;
    }

    /** Every indexed range sharing an address with {@code range}, by first address. */
    public synchronized List<Hit<V>> overlapping(IpRange range) {
        List<Hit<V>> out = new ArrayList<>();
        for (List<Hit<V>> at : byFirst.subMap(lowerBound(range.first()), true, range.last(), true).values()) {
            for (Hit<V> hit : at) {
                if (hit.range().overlaps(range)) {
                    out.add(hit);
                }
            }
        }
        return out;
    }

    /** {@code first - widest}, or the family's first address when that would go below it. */
    private IpAddress lowerBound(IpAddress first) {
        long lo = first.lo() - widestLo;
        long borrow = Long.compareUnsigned(first.lo(), widestLo) < 0 ? 1 : 0;
        long hi = first.hi() - widestHi - borrow;
        boolean under = Long.compareUnsigned(first.hi(), widestHi) < 0
                || (first.hi() == widestHi && borrow == 1);
        if (first.family() == IpFamily.IPV4) {
            return under || hi != 0 || lo < 0 ? IpAddress.ipv4(0) : IpAddress.ipv4(lo);
        }
        return under ? IpAddress.ipv6(0, 0) : IpAddress.ipv6(hi, lo);
    }
}
