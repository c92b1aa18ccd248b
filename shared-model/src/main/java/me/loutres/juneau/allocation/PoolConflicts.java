package me.loutres.juneau.allocation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;

/**
 * Conflicts admission refuses but a race between two creates (or objects stored before the webhook existed) can
 * still store: two AddressPools whose ranges overlap, one AddressPool listed by two ExternalNetworks. A webhook reads
 * a cache and cannot serialize writers; the controller finds them here, pure, from the objects it caches, and says
 * so on every object involved, naming the others (docs/allocation.md, "Conflicts stored around admission").
 */
public final class PoolConflicts {
    private PoolConflicts() {
    }

    /** One conflict as said on one object: the other objects it names, and the sentence. */
    public record Conflict(String reason, List<String> others, String message) {
        public Conflict {
            others = List.copyOf(others);
        }
    }

    public static final String REASON_OVERLAPPING_POOL = "OverlappingPool";
    public static final String REASON_POOL_IN_TWO_NETWORKS = "PoolInTwoNetworks";

    /** By pool name: the other pools whose usable ranges overlap it, each with the first overlapping range. */
    public static Map<String, List<Conflict>> overlaps(Collection<AddressPool> pools) {
        List<String> names = new ArrayList<>();
        List<List<AddressRange>> ranges = new ArrayList<>();
        for (AddressPool p : pools) {
            if (p == null || p.getMetadata() == null || p.getMetadata().getName() == null) {
                continue;
            }
            names.add(p.getMetadata().getName());
            ranges.add(AllocatorFeed.pool(p).entries().stream().map(PoolEntry::usable).toList());
        }
        Map<String, List<Conflict>> out = new TreeMap<>();
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                AddressRange shared = firstOverlap(ranges.get(i), ranges.get(j));
                if (shared == null) {
                    continue;
                }
                String overlap = Ipv4.format(shared.first()) + "-" + Ipv4.format(shared.last());
                add(out, names.get(i), new Conflict(REASON_OVERLAPPING_POOL, List.of(names.get(j)), overlap(
                        names.get(i), names.get(j), overlap)));
                add(out, names.get(j), new Conflict(REASON_OVERLAPPING_POOL, List.of(names.get(i)), overlap(
                        names.get(j), names.get(i), overlap)));
            }
        }
        return out;
    }

    /**
     * By pool name and by network name: a pool listed by more than one ExternalNetwork, said on the pool (naming the
     * networks) and on each network (naming the pool and the other networks).
     */
    public static Map<String, List<Conflict>> sharedPools(Collection<ExternalNetwork> networks,
            Map<String, List<Conflict>> onNetworks) {
        Map<String, List<String>> listers = new TreeMap<>();
        for (ExternalNetwork n : networks) {
            if (n == null || n.getMetadata() == null || n.getSpec() == null || n.getSpec().getAddressPools() == null) {
                continue;
            }
            for (String pool : n.getSpec().getAddressPools().stream().distinct().toList()) {
                if (pool != null) {
                    listers.computeIfAbsent(pool, k -> new ArrayList<>()).add(n.getMetadata().getName());
                }
            }
        }
        Map<String, List<Conflict>> onPools = new TreeMap<>();
        listers.forEach((pool, nets) -> {
            if (nets.size() < 2) {
                return;
            }
            List<String> sorted = nets.stream().sorted().toList();
            add(onPools, pool, new Conflict(REASON_POOL_IN_TWO_NETWORKS, sorted, "AddressPool " + pool
                    + " is listed by ExternalNetworks " + String.join(", ", sorted) + "; a pool belongs to one"
                    + " ExternalNetwork: remove it from all but one (admission refuses this; it was stored around"
                    + " it)"));
            for (String net : sorted) {
                List<String> others = sorted.stream().filter(o -> !o.equals(net)).toList();
                add(onNetworks, net, new Conflict(REASON_POOL_IN_TWO_NETWORKS, others, "ExternalNetwork " + net
                        + " lists AddressPool " + pool + ", which ExternalNetwork " + String.join(", ", others)
                        + " lists too; a pool belongs to one ExternalNetwork: remove it from all but one"));
            }
        });
        return onPools;
    }

    private static String overlap(String pool, String other, String range) {
        return "AddressPool " + pool + " overlaps AddressPool " + other + " (" + range + "); an address of the overlap"
                + " is handed out once, through whichever pool asks first: make the ranges disjoint (admission"
                + " refuses this; it was stored around it)";
    }

    private static void add(Map<String, List<Conflict>> m, String key, Conflict c) {
        m.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
    }

    private static AddressRange firstOverlap(List<AddressRange> a, List<AddressRange> b) {
        AddressRange best = null;
        for (AddressRange x : a) {
            for (AddressRange y : b) {
                long first = Math.max(x.first(), y.first());
                long last = Math.min(x.last(), y.last());
                if (first <= last && (best == null || first < best.first())) {
                    best = new AddressRange(first, last);
                }
            }
        }
        return best;
    }
}
