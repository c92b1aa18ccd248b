package me.loutres.juneau.allocation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.PoolEntry;

/**
 * The allocation rules of docs/allocation.md written the slow, obvious way (scan every address), as the reference the
 * properties compare {@link Allocator} with. Only for small address spaces.
 */
final class AllocationModel {
    record Pool(String mode, List<PoolEntry> entries) {
        boolean arp() {
            return "arp".equals(mode);
        }

        boolean usable(long a) {
            return entries.stream().anyMatch(e -> e.isUsable(a));
        }
    }

    final Map<String, Pool> pools = new LinkedHashMap<>();
    final Map<String, AllocationRecord> byOwner = new HashMap<>();
    final Map<Long, String> holder = new HashMap<>();
    Set<Long> excluded = new TreeSet<>();
    List<AddressRange> reserved = List.of();

    void upsertPool(String name, String mode, List<PoolEntry> entries) {
        pools.put(name, new Pool(mode, List.copyOf(entries)));
    }

    void removePool(String name) {
        pools.remove(name);
    }

    void setExcluded(Set<Long> addrs) {
        excluded = new TreeSet<>(addrs);
    }

    void setReserved(List<AddressRange> ranges) {
        reserved = List.copyOf(ranges);
    }

    boolean reserved(long a) {
        return reserved.stream().anyMatch(r -> r.contains(a));
    }

    AllocationResult allocate(String owner, List<String> order, OptionalLong requested) {
        AllocationRecord mine = byOwner.get(owner);
        if (mine != null) {
            return new AllocationResult.Allocated(mine.pool(), mine.address());
        }
        List<String> known = order.stream().distinct().filter(pools::containsKey).toList();
        if (requested.isPresent()) {
            long a = requested.getAsLong();
            String home = known.stream().filter(n -> pools.get(n).usable(a)).findFirst().orElse(null);
            if (home == null) {
                List<String> ranges = new ArrayList<>();
                for (String n : known) {
                    for (PoolEntry e : pools.get(n).entries()) {
                        ranges.add(e.usable() + " (" + n + ")");
                    }
                }
                return new AllocationResult.RequestedOutsidePools(a, ranges);
            }
            if (holder.containsKey(a)) {
                return new AllocationResult.RequestedInUse(a, holder.get(a));
            }
            if (reserved(a)) {
                return new AllocationResult.RequestedInUse(a, Allocator.CLUSTER_RANGE_HOLDER);
            }
            if (pools.get(home).arp() && excluded.contains(a)) {
                return new AllocationResult.RequestedInUse(a, Allocator.NODE_ADDRESS_HOLDER);
            }
            hold(new AllocationRecord(owner, home, a));
            return new AllocationResult.Allocated(home, a);
        }
        for (String n : known) {
            Pool p = pools.get(n);
            for (PoolEntry e : p.entries()) {
                for (long a = e.usable().first(); a <= e.usable().last(); a++) {
                    if (!holder.containsKey(a) && !reserved(a) && !(p.arp() && excluded.contains(a))) {
                        hold(new AllocationRecord(owner, n, a));
                        return new AllocationResult.Allocated(n, a);
                    }
                }
            }
        }
        return new AllocationResult.Exhausted(known.stream().map(this::usage).toList());
    }

    void release(String owner) {
        AllocationRecord r = byOwner.remove(owner);
        if (r != null) {
            holder.remove(r.address());
        }
    }

    void restore(Collection<AllocationRecord> records) {
        for (AllocationRecord r : records) {
            if (!byOwner.containsKey(r.owner()) && !holder.containsKey(r.address())) {
                hold(r);
            }
        }
    }

    PoolUsage usage(String name) {
        Pool p = pools.get(name);
        if (p == null) {
            return new PoolUsage(name, 0, 0);
        }
        Set<Long> union = new TreeSet<>();
        for (PoolEntry e : p.entries()) {
            for (long a = e.usable().first(); a <= e.usable().last(); a++) {
                union.add(a);
            }
        }
        long held = union.stream().filter(holder::containsKey).count();
        // held through another known pool that contains the address too (overlapping pools): not this pool's
        long elsewhere = union.stream().filter(holder::containsKey).filter(a -> {
            AllocationRecord r = byOwner.get(holder.get(a));
            Pool home = pools.get(r.pool());
            return !r.pool().equals(name) && home != null && home.usable(a);
        }).count();
        long reservedFree = union.stream().filter(a -> reserved(a) && !holder.containsKey(a)).count();
        long excludedFree = p.arp() ? union.stream().filter(a -> excluded.contains(a) && !holder.containsKey(a)
                && !reserved(a)).count() : 0;
        return new PoolUsage(name, union.size() - excludedFree - reservedFree, held - elsewhere, elsewhere);
    }

    long reservedCount(String name) {
        Pool p = pools.get(name);
        if (p == null) {
            return 0;
        }
        Set<Long> union = new TreeSet<>();
        for (PoolEntry e : p.entries()) {
            for (long a = e.usable().first(); a <= e.usable().last(); a++) {
                union.add(a);
            }
        }
        return union.stream().filter(a -> reserved(a) && !holder.containsKey(a)).count();
    }

    private void hold(AllocationRecord r) {
        byOwner.put(r.owner(), r);
        holder.put(r.address(), r.owner());
    }
}
