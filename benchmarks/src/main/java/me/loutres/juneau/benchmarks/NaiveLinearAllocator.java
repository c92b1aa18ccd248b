package me.loutres.juneau.benchmarks;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The baseline: what one writes first. A set of used addresses and a scan from the bottom of the pool for the
 * first hole, so the cost of one allocation grows with the number of used addresses below the hole.
 */
final class NaiveLinearAllocator {
    private final long first;
    private final long last;
    private final Set<Long> used = new HashSet<>();
    private final Map<String, Long> byOwner = new HashMap<>();

    NaiveLinearAllocator(long first, long last) {
        this.first = first;
        this.last = last;
    }

    void hold(String owner, long address) {
        used.add(address);
        byOwner.put(owner, address);
    }

    long allocate(String owner) {
        Long mine = byOwner.get(owner);
        if (mine != null) {
            return mine;
        }
        for (long a = first; a <= last; a++) {
            if (!used.contains(a)) {
                hold(owner, a);
                return a;
            }
        }
        return -1;
    }

    void release(String owner) {
        Long a = byOwner.remove(owner);
        if (a != null) {
            used.remove(a);
        }
    }
}
