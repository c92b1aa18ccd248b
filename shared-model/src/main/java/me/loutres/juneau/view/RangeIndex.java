package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import me.loutres.juneau.ip.AddressRange;

/**
 * Address ranges sorted by their first address, each owned by one object (its key) so that a new version of the
 * object replaces its ranges: the cluster view's "what overlaps this range" index (docs/admission.md, "Cost of a
 * review"). A query reads only the ranges that start between {@code first - widest} and {@code last}, so its cost
 * follows the answer, not the number of objects. Safe for one writer (an informer's event thread) and many readers.
 */
public final class RangeIndex<V> implements OwnedRanges<RangeIndex.Hit<V>> {
    /** One indexed range and what it stands for. */
    public record Hit<V>(AddressRange range, V value) {
    }

    private final NavigableMap<Long, List<Hit<V>>> byFirst = new TreeMap<>();
    private final Map<String, List<Hit<V>>> byOwner = new HashMap<>();
    // the widest range ever indexed: never shrunk on removal, so it stays a correct (if loose) bound for queries
    private long widest;

    /**
     * The owner's ranges become exactly {@code hits} (none: the owner is removed); false when they already were (a
     * Node's status update that left its podCIDRs alone, for instance).
     */
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
            widest = Math.max(widest, hit.range().last() - hit.range().first());
        }
        return true;
    }

    /** Every indexed range, by first address. */
    public synchronized List<Hit<V>> all() {
        List<Hit<V>> out = new ArrayList<>();
        byFirst.values().forEach(out::addAll);
        return out;
    }

    /** Removes the owner's ranges; false when it had none. */
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
    public synchronized List<Hit<V>> overlapping(AddressRange range) {
        List<Hit<V>> out = new ArrayList<>();
        long from = Math.max(0, range.first() - widest);
        for (List<Hit<V>> at : byFirst.subMap(from, true, range.last(), true).values()) {
            for (Hit<V> hit : at) {
                if (hit.range().overlaps(range)) {
                    out.add(hit);
                }
            }
        }
        return out;
    }
}
