package me.loutres.juneau.benchmarks;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * A stronger baseline: still a linear scan, but over a bitmap with {@link BitSet#nextClearBit}, 64 addresses per
 * step. Shows how much of the gap is the data structure and how much is the algorithm.
 */
final class BitSetScanAllocator {
    private final long first;
    private final int size;
    private final BitSet used;
    private final Map<String, Long> byOwner = new HashMap<>();

    BitSetScanAllocator(long first, long last) {
        this.first = first;
        this.size = Math.toIntExact(last - first + 1);
        this.used = new BitSet(size);
    }

    void hold(String owner, long address) {
        used.set(Math.toIntExact(address - first));
        byOwner.put(owner, address);
    }

    long allocate(String owner) {
        Long mine = byOwner.get(owner);
        if (mine != null) {
            return mine;
        }
        int i = used.nextClearBit(0);
        if (i >= size) {
            return -1;
        }
        long a = first + i;
        hold(owner, a);
        return a;
    }

    void release(String owner) {
        Long a = byOwner.remove(owner);
        if (a != null) {
            used.clear(Math.toIntExact(a - first));
        }
    }
}
