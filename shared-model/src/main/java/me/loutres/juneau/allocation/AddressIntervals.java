package me.loutres.juneau.allocation;

import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpRange;

/**
 * A set of addresses of either family kept as disjoint, non-adjacent inclusive intervals (first -> last) over their
 * 128-bit values: the free space of a pool entry (docs/allocation.md, "Cost"). Taking the lowest address, taking a
 * given one and giving one back each cost O(log intervals), and memory follows the number of intervals, never the
 * size of a range: a whole /64 is one interval, like a /24. {@link #size} (a walk of the intervals, for status
 * counts, never for an allocation) saturates at {@link Long#MAX_VALUE}.
 * Not thread-safe; its owner guards it.
 */
public final class AddressIntervals {
    private final TreeMap<IpAddress, IpAddress> ranges = new TreeMap<>();

    /** Adds the range's addresses, merging with the intervals it touches or overlaps. */
    public void add(IpRange range) {
        IpAddress lo = range.first();
        IpAddress hi = range.last();
        IpAddress before = lo.minusOne();
        Map.Entry<IpAddress, IpAddress> below = before == null ? null : ranges.floorEntry(before);
        if (below != null && below.getValue().compareTo(before) >= 0) {
            lo = below.getKey();
            hi = max(hi, below.getValue());
            ranges.remove(below.getKey());
        }
        // every interval starting inside [lo, hi + 1] is swallowed
        IpAddress after = hi.plus(1);
        while (true) {
            Map.Entry<IpAddress, IpAddress> next = ranges.ceilingEntry(lo);
            if (next == null || (after != null && next.getKey().compareTo(after) > 0)
                    || (after == null && next.getKey().compareTo(hi) > 0)) {
                break;
            }
            hi = max(hi, next.getValue());
            ranges.remove(next.getKey());
            after = hi.plus(1);
        }
        ranges.put(lo, hi);
    }

    public boolean contains(IpAddress address) {
        Map.Entry<IpAddress, IpAddress> e = ranges.floorEntry(address);
        return e != null && e.getValue().compareTo(address) >= 0;
    }

    /** The lowest address, or null when empty. */
    public IpAddress lowest() {
        return ranges.isEmpty() ? null : ranges.firstKey();
    }

    /** Removes and returns the lowest address, or null when empty. */
    public IpAddress takeLowest() {
        Map.Entry<IpAddress, IpAddress> e = ranges.pollFirstEntry();
        if (e == null) {
            return null;
        }
        IpAddress first = e.getKey();
        if (first.compareTo(e.getValue()) < 0) {
            ranges.put(first.plus(1), e.getValue());
        }
        return first;
    }

    /** Removes the address; false when it was not in the set. */
    public boolean take(IpAddress address) {
        Map.Entry<IpAddress, IpAddress> e = ranges.floorEntry(address);
        if (e == null || e.getValue().compareTo(address) < 0) {
            return false;
        }
        IpAddress first = e.getKey();
        IpAddress last = e.getValue();
        ranges.remove(first);
        if (first.compareTo(address) < 0) {
            ranges.put(first, address.minusOne());
        }
        if (address.compareTo(last) < 0) {
            ranges.put(address.plus(1), last);
        }
        return true;
    }

    /** Adds the address; false when it was already in the set. */
    public boolean give(IpAddress address) {
        if (contains(address)) {
            return false;
        }
        add(IpRange.single(address));
        return true;
    }

    /** How many addresses the set holds, saturating at {@link Long#MAX_VALUE}. */
    public long size() {
        long n = 0;
        for (Map.Entry<IpAddress, IpAddress> e : ranges.entrySet()) {
            n = IpRange.saturatingAdd(n, new IpRange(e.getKey(), e.getValue()).size());
        }
        return n;
    }

    /** Empties the set. */
    public void clear() {
        ranges.clear();
    }

    /** How many intervals hold the set: what its memory follows. */
    public int intervals() {
        return ranges.size();
    }

    private static IpAddress max(IpAddress a, IpAddress b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
