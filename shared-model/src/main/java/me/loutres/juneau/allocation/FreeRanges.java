package me.loutres.juneau.allocation;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of addresses kept as disjoint, non-adjacent inclusive intervals (start -> end), so taking the lowest free
 * address, taking a given one and giving one back each cost O(log intervals), whatever the number of used
 * addresses. Not thread-safe; {@link Allocator} guards it.
 */
final class FreeRanges {
    private final TreeMap<Long, Long> ranges = new TreeMap<>();
    private long size;

    /** Adds an interval disjoint from the current content, merging it with adjacent intervals. */
    void addRange(long first, long last) {
        if (first > last) {
            return;
        }
        Map.Entry<Long, Long> below = ranges.floorEntry(first - 1);
        long lo = first;
        long hi = last;
        if (below != null && below.getValue() >= first - 1) {
            lo = below.getKey();
            hi = Math.max(hi, below.getValue());
            size -= below.getValue() - below.getKey() + 1;
            ranges.remove(below.getKey());
        }
        Long aboveEnd = ranges.get(last + 1);
        if (aboveEnd != null) {
            hi = Math.max(hi, aboveEnd);
            size -= aboveEnd - (last + 1) + 1;
            ranges.remove(last + 1);
        }
        ranges.put(lo, hi);
        size += hi - lo + 1;
    }

    boolean contains(long address) {
        Map.Entry<Long, Long> e = ranges.floorEntry(address);
        return e != null && e.getValue() >= address;
    }

    /** The lowest address, or -1 when empty. */
    long lowest() {
        return ranges.isEmpty() ? -1 : ranges.firstKey();
    }

    /** Removes and returns the lowest address, or -1 when empty. */
    long takeLowest() {
        Map.Entry<Long, Long> e = ranges.pollFirstEntry();
        if (e == null) {
            return -1;
        }
        long first = e.getKey();
        if (first < e.getValue()) {
            ranges.put(first + 1, e.getValue());
        }
        size--;
        return first;
    }

    /** Removes the address; false when it was not in the set. */
    boolean take(long address) {
        Map.Entry<Long, Long> e = ranges.floorEntry(address);
        if (e == null || e.getValue() < address) {
            return false;
        }
        long first = e.getKey();
        long last = e.getValue();
        ranges.remove(first);
        if (first < address) {
            ranges.put(first, address - 1);
        }
        if (address < last) {
            ranges.put(address + 1, last);
        }
        size--;
        return true;
    }

    /** Adds the address; false when it was already in the set. */
    boolean give(long address) {
        if (contains(address)) {
            return false;
        }
        addRange(address, address);
        return true;
    }

    void clear() {
        ranges.clear();
        size = 0;
    }

    long size() {
        return size;
    }

    int intervals() {
        return ranges.size();
    }
}
