package me.loutres.juneau.allocation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;

/**
 * Hands out VIPs from AddressPools (docs/allocation.md). Pure and in memory: the controller feeds it pools, node addresses
 * and the records it finds in ServiceLoadBalancer statuses, and writes the decisions back.
 *
 * <p>Order: pools in the order the caller gives (the ExternalNetwork's {@code spec.addressPools}), inside a pool
 * its entries in list order, inside an entry the lowest free address. An entry's usable addresses are its range
 * minus the network and broadcast addresses of CIDRs shorter than /31; an address covered by two entries of one
 * pool belongs to the first of them.
 *
 * <p>Cost: every entry keeps its free addresses as intervals ({@link AddressIntervals}, the one interval set of
 * either family), so one allocation, release or
 * requested-address check costs O(pools + entries + log intervals) and never walks the used addresses. Only
 * {@link #upsertPool} visits the addresses already held inside the pool's ranges, once, to build the free
 * intervals.
 *
 * <p>Held addresses: {@link #restore} accepts every record, also for pools not known yet or already removed, so
 * the address can never be handed out twice; when such a pool appears its free intervals leave the address out.
 *
 * <p>Counts per pool ({@link #usage}): {@code allocated} = held addresses inside the pool's usable ranges (an
 * address held in the overlap of two pools counts for the pool its record names, and as held-by-another-pool in
 * the other);
 * {@code total} = usable addresses minus the excluded node addresses (arp pools only) and minus the addresses of
 * reserved ranges (every pool) that nobody holds, i.e. the addresses a Service can hold; {@code free} =
 * {@code total - allocated} = what {@link #allocate} can still hand out. An excluded or reserved address that a
 * Service already held (restored before the node or the range appeared) stays held and counts as allocated until
 * released. Excluded addresses never reduce bgp pools (docs/allocation.md: the exclusion exists because an
 * ARPAdvertisement for a node's own address would be refused).
 *
 * <p>Reserved ranges ({@link #setReservedRanges}) are the ranges the cluster says it uses (ServiceCIDRs, Nodes'
 * podCIDRs) learnt after a pool that overlaps them was stored (docs/allocation.md, "Pools overlapping the
 * cluster's ranges"). They are ranges, not address sets: a /12 costs one interval. An address both excluded and
 * reserved counts once, as reserved.
 *
 * <p>Thread-safe: every public method is synchronized. {@link #version} counts the changes, so a decision taken
 * from {@link #wouldAllocate} or {@link #wouldClaim} (the controller's pure planner reads those) can be checked
 * before it is carried out: same version, same answer.
 */
public final class Allocator {

    /** {@link AllocationResult.RequestedInUse#holder()} when a requested arp address is a Node's InternalIP. */
    public static final String NODE_ADDRESS_HOLDER = "a Node (it is that Node's InternalIP)";

    /** {@link AllocationResult.RequestedInUse#holder()} when a requested address lies in a reserved range. */
    public static final String CLUSTER_RANGE_HOLDER = "the cluster network (a ServiceCIDR or a Node's podCIDR)";

    private final Map<String, PoolState> pools = new LinkedHashMap<>();
    private final Map<String, AllocationRecord> byOwner = new HashMap<>();
    private final TreeMap<Long, String> holderByAddress = new TreeMap<>();
    private TreeSet<Long> excluded = new TreeSet<>();
    /** Reserved ranges, first -> last, disjoint and merged. */
    private TreeMap<Long, Long> reserved = new TreeMap<>();
    private List<AllocationConflict> lastConflicts = List.of();
    /** Bumped by every change of what the allocator would answer (held addresses, pools, excluded, reserved). */
    private long version;

    public Allocator() {
    }

    /**
     * Adds or updates a pool. Entries are append-only in the API: appended entries extend the pool in place;
     * any other change (mode or an earlier entry changed) rebuilds the pool. Held addresses stay held either way.
     */
    public synchronized void upsertPool(String name, String advertiseMode, List<PoolEntry> entries) {
        String mode = advertiseMode == null ? "" : advertiseMode.toLowerCase(Locale.ROOT);
        List<PoolEntry> list = entries == null ? List.of() : List.copyOf(entries);
        PoolState existing = pools.get(name);
        version++;
        if (existing != null && existing.mode.equals(mode) && isPrefix(existing.entries, list)) {
            for (int i = existing.entries.size(); i < list.size(); i++) {
                addEntry(existing, list.get(i));
            }
            return;
        }
        PoolState fresh = new PoolState(name, mode);
        pools.put(name, fresh);
        for (PoolEntry e : list) {
            addEntry(fresh, e);
        }
    }

    /** Forgets the pool; its held addresses stay held (never handed out twice) until released. */
    public synchronized void removePool(String name) {
        version++;
        pools.remove(name);
    }

    /** Node InternalIPs: never handed out from arp pools. Replaces the previous set. */
    public synchronized void setExcludedAddresses(Set<Long> addrs) {
        TreeSet<Long> next = new TreeSet<>();
        if (addrs != null) {
            for (Long a : addrs) {
                if (a != null && a >= 0 && a <= Ipv4.MAX) {
                    next.add(a);
                }
            }
        }
        version++;
        // a reserved address is out of the free set whether or not it is excluded: its counts do not move
        for (Long a : excluded) {
            if (!next.contains(a) && !holderByAddress.containsKey(a) && !isReserved(a)) {
                for (PoolState p : pools.values()) {
                    Piece piece = p.arp() ? p.pieceOf(a) : null;
                    if (piece != null) {
                        p.excludedFree--;
                        piece.entry.free.give(IpAddress.ipv4(a));
                    }
                }
            }
        }
        for (Long a : next) {
            if (!excluded.contains(a) && !holderByAddress.containsKey(a) && !isReserved(a)) {
                for (PoolState p : pools.values()) {
                    Piece piece = p.arp() ? p.pieceOf(a) : null;
                    if (piece != null && piece.entry.free.take(IpAddress.ipv4(a))) {
                        p.excludedFree++;
                    }
                }
            }
        }
        excluded = next;
    }

    /**
     * The ranges the cluster uses (ServiceCIDRs, Nodes' podCIDRs): never handed out from any pool. Replaces the
     * previous set; a pool whose share of the reserved ranges changed has its free addresses rebuilt (held addresses
     * stay held), the others are untouched. Ranges change when a Node joins or leaves or a ServiceCIDR changes.
     */
    public synchronized void setReservedRanges(Collection<AddressRange> ranges) {
        TreeMap<Long, Long> next = merge(ranges);
        if (next.equals(reserved)) {
            return;
        }
        TreeMap<Long, Long> before = reserved;
        version++;
        reserved = next;
        for (PoolState p : pools.values()) {
            if (!within(before, p).equals(within(next, p))) {
                rebuild(p);
            }
        }
    }

    /** Addresses of the pool in a reserved range that nobody holds: neither free nor counted in its total. */
    public synchronized long reservedCount(String pool) {
        PoolState p = pools.get(pool);
        return p == null ? 0 : p.reservedFree;
    }

    /**
     * The allocations inside the reserved part of the pool: VIPs held before their range was learnt. They stay held
     * (taking a live VIP back would cut its traffic); the caller reports them.
     */
    public synchronized List<AllocationRecord> heldInReserved(String pool) {
        PoolState p = pools.get(pool);
        List<AllocationRecord> out = new ArrayList<>();
        if (p == null) {
            return out;
        }
        for (AddressRange r : within(reserved, p)) {
            for (String owner : holderByAddress.subMap(r.first(), true, r.last(), true).values()) {
                AllocationRecord rec = byOwner.get(owner);
                if (rec != null) {
                    out.add(rec);
                }
            }
        }
        return out;
    }

    private boolean isReserved(long address) {
        Map.Entry<Long, Long> e = reserved.floorEntry(address);
        return e != null && e.getValue() >= address;
    }

    private static TreeMap<Long, Long> merge(Collection<AddressRange> ranges) {
        List<AddressRange> sorted = new ArrayList<>();
        if (ranges != null) {
            for (AddressRange r : ranges) {
                if (r != null) {
                    sorted.add(r);
                }
            }
        }
        sorted.sort(null);
        TreeMap<Long, Long> out = new TreeMap<>();
        long first = -1;
        long last = -2;
        for (AddressRange r : sorted) {
            if (r.first() <= last + 1) {
                last = Math.max(last, r.last());
                continue;
            }
            if (first >= 0) {
                out.put(first, last);
            }
            first = r.first();
            last = r.last();
        }
        if (first >= 0) {
            out.put(first, last);
        }
        return out;
    }

    /** The parts of {@code ranges} inside the pool's usable pieces, in order. */
    private static List<AddressRange> within(TreeMap<Long, Long> ranges, PoolState p) {
        List<AddressRange> out = new ArrayList<>();
        if (ranges.isEmpty()) {
            return out;
        }
        for (Piece piece : p.pieces.values()) {
            out.addAll(clip(ranges, piece.first, piece.last));
        }
        return out;
    }

    private static List<AddressRange> clip(TreeMap<Long, Long> ranges, long first, long last) {
        List<AddressRange> out = new ArrayList<>();
        if (ranges.isEmpty()) {
            return out;
        }
        Map.Entry<Long, Long> below = ranges.floorEntry(first);
        long from = below != null && below.getValue() >= first ? below.getKey() : first;
        for (Map.Entry<Long, Long> r : ranges.subMap(from, true, last, true).entrySet()) {
            long lo = Math.max(first, r.getKey());
            long hi = Math.min(last, r.getValue());
            if (lo <= hi) {
                out.add(new AddressRange(lo, hi));
            }
        }
        return out;
    }

    /** Recomputes the pool's free addresses and counts from its pieces, the held, excluded and reserved addresses. */
    private void rebuild(PoolState p) {
        p.held = 0;
        p.excludedFree = 0;
        p.reservedFree = 0;
        for (EntryState es : p.entryStates) {
            es.free.clear();
        }
        for (Piece piece : p.pieces.values()) {
            fillPiece(p, piece.entry, piece.first, piece.last);
        }
    }

    /**
     * Allocates an address for the owner. Idempotent: an owner that already holds an address gets it back,
     * whatever it asks for now (a VIP never changes once set).
     *
     * @param owner     {@code namespace/name} of the Service
     * @param poolOrder the ExternalNetwork's pools in spec order; unknown names are skipped
     * @param requested the requested address, if the Service asks for one
     */
    public synchronized AllocationResult allocate(String owner, List<String> poolOrder, OptionalLong requested) {
        AllocationResult r = wouldAllocate(owner, poolOrder, requested);
        if (r instanceof AllocationResult.Allocated a && !byOwner.containsKey(owner)) {
            hold(new AllocationRecord(owner, a.pool(), a.address()));
        }
        return r;
    }

    /** What {@link #allocate} would answer now, changing nothing. */
    public synchronized AllocationResult wouldAllocate(String owner, List<String> poolOrder, OptionalLong requested) {
        AllocationRecord held = byOwner.get(owner);
        if (held != null) {
            return new AllocationResult.Allocated(held.pool(), held.address());
        }
        List<PoolState> order = knownPools(poolOrder);
        if (requested != null && requested.isPresent()) {
            return requested(order, requested.getAsLong());
        }
        for (PoolState p : order) {
            for (EntryState e : p.entries()) {
                IpAddress a = e.free.lowest();
                if (a != null) {
                    return new AllocationResult.Allocated(p.name, a.ipv4Value());
                }
            }
        }
        return new AllocationResult.Exhausted(order.stream().map(this::usageOf).toList());
    }

    private AllocationResult requested(List<PoolState> order, long address) {
        PoolState home = null;
        if (address >= 0 && address <= Ipv4.MAX) {
            for (PoolState p : order) {
                if (p.pieceOf(address) != null) {
                    home = p;
                    break;
                }
            }
        }
        if (home == null) {
            return new AllocationResult.RequestedOutsidePools(address, rangesOf(order));
        }
        String holder = holderByAddress.get(address);
        if (holder != null) {
            return new AllocationResult.RequestedInUse(address, holder);
        }
        if (isReserved(address)) {
            return new AllocationResult.RequestedInUse(address, CLUSTER_RANGE_HOLDER);
        }
        if (home.arp() && excluded.contains(address)) {
            return new AllocationResult.RequestedInUse(address, NODE_ADDRESS_HOLDER);
        }
        return new AllocationResult.Allocated(home.name, address);
    }

    /** Frees the owner's address; empty when it held none. */
    public synchronized Optional<AllocationRecord> release(String owner) {
        AllocationRecord r = byOwner.remove(owner);
        if (r == null) {
            return Optional.empty();
        }
        version++;
        holderByAddress.remove(r.address());
        for (PoolState p : pools.values()) {
            Piece piece = p.pieceOf(r.address());
            if (piece != null) {
                p.held--;
                if (isReserved(r.address())) {
                    p.reservedFree++;
                } else if (p.arp() && excluded.contains(r.address())) {
                    p.excludedFree++;
                } else {
                    piece.entry.free.give(IpAddress.ipv4(r.address()));
                }
            }
        }
        return Optional.of(r);
    }

    /**
     * Takes the records found in ServiceLoadBalancer statuses as held, before anything is allocated. Records are
     * applied in iteration order (give the oldest first): a record whose address another owner already holds, or
     * whose owner already holds another address, is refused and reported by {@link #lastRestoreConflicts()}.
     * Records for unknown pools, edge or excluded addresses are held all the same: they are the record of truth.
     */
    public synchronized void restore(Collection<AllocationRecord> records) {
        List<AllocationConflict> conflicts = new ArrayList<>();
        if (records != null) {
            for (AllocationRecord r : records) {
                if (r == null) {
                    continue;
                }
                AllocationRecord mine = byOwner.get(r.owner());
                if (mine != null) {
                    if (!mine.equals(r)) {
                        conflicts.add(new AllocationConflict(mine, r));
                    }
                    continue;
                }
                String holder = holderByAddress.get(r.address());
                if (holder != null) {
                    conflicts.add(new AllocationConflict(byOwner.get(holder), r));
                    continue;
                }
                hold(r);
            }
        }
        lastConflicts = List.copyOf(conflicts);
    }

    /**
     * Takes one record read from a ServiceLoadBalancer status as the record of truth for its owner, resolving a claim
     * on an address another owner holds deterministically: {@code claimantOlder.test(claimant, holder)} says whether
     * the claimant's allocation is the older one (the restore's order: oldest ServiceLoadBalancer first), and the
     * older keeps the address. An owner that records a new address gives up the one it held.
     */
    public synchronized ClaimOutcome claim(AllocationRecord r, java.util.function.BiPredicate<String, String> claimantOlder) {
        ClaimOutcome outcome = wouldClaim(r, claimantOlder);
        if (outcome instanceof ClaimOutcome.Held || outcome instanceof ClaimOutcome.Lost) {
            return outcome;
        }
        String holder = holderByAddress.get(r.address());
        if (holder != null) {
            release(holder);
        }
        release(r.owner());
        hold(r);
        return outcome;
    }

    /** What {@link #claim} would answer now, changing nothing. */
    public synchronized ClaimOutcome wouldClaim(AllocationRecord r,
            java.util.function.BiPredicate<String, String> claimantOlder) {
        AllocationRecord mine = byOwner.get(r.owner());
        if (mine != null && mine.address() == r.address()) {
            return new ClaimOutcome.Held();
        }
        String holder = holderByAddress.get(r.address());
        if (holder != null && !claimantOlder.test(r.owner(), holder)) {
            return new ClaimOutcome.Lost(byOwner.get(holder));
        }
        Optional<AllocationRecord> replaced = Optional.ofNullable(mine);
        return holder == null ? new ClaimOutcome.Learnt(replaced)
                : new ClaimOutcome.Won(byOwner.get(holder), replaced);
    }

    /** The count of changes so far: equal versions answer {@link #wouldAllocate} and {@link #wouldClaim} alike. */
    public synchronized long version() {
        return version;
    }

    /** The records the last {@link #restore} call refused, with the record that kept each address or owner. */
    public synchronized List<AllocationConflict> lastRestoreConflicts() {
        return lastConflicts;
    }

    public synchronized Optional<AllocationRecord> allocationOf(String owner) {
        return Optional.ofNullable(byOwner.get(owner));
    }

    public synchronized Optional<String> holderOf(long address) {
        return Optional.ofNullable(holderByAddress.get(address));
    }

    /** Counts of a known pool; an unknown pool has none. */
    public synchronized PoolUsage usage(String pool) {
        PoolState p = pools.get(pool);
        return p == null ? new PoolUsage(pool, 0, 0) : usageOf(p);
    }

    /** Every held address, sorted by owner, for equality checks. */
    public synchronized List<AllocationRecord> records() {
        List<AllocationRecord> all = new ArrayList<>(byOwner.values());
        all.sort(Comparator.comparing(AllocationRecord::owner).thenComparingLong(AllocationRecord::address));
        return all;
    }

    /** The usable ranges of the given pools in order, as {@link AllocationResult.RequestedOutsidePools} lists them. */
    public synchronized List<String> usableRanges(List<String> poolOrder) {
        return rangesOf(knownPools(poolOrder));
    }

    private static List<String> rangesOf(List<PoolState> order) {
        List<String> out = new ArrayList<>();
        for (PoolState p : order) {
            for (EntryState e : p.entries()) {
                out.add(e.entry.usable() + " (" + p.name + ")");
            }
        }
        return out;
    }

    private List<PoolState> knownPools(List<String> poolOrder) {
        List<PoolState> out = new ArrayList<>();
        if (poolOrder != null) {
            for (String name : poolOrder) {
                PoolState p = pools.get(name);
                if (p != null && !out.contains(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /**
     * The counts of a pool. Pools whose ranges overlap (stored around admission) both block an address held in the
     * overlap; it is allocated in the pool the record names and held-by-another-pool in the other, so neither pool
     * reports the other's allocations as its own. Only a pool that overlaps another pays for the walk over its held
     * addresses.
     */
    private PoolUsage usageOf(PoolState p) {
        boolean overlapping = false;
        for (PoolState q : pools.values()) {
            if (q != p && p.overlaps(q)) {
                overlapping = true;
                break;
            }
        }
        if (!overlapping) {
            return p.usage(0);
        }
        long elsewhere = 0;
        for (Piece piece : p.pieces.values()) {
            for (Map.Entry<Long, String> h : holderByAddress.subMap(piece.first, true, piece.last, true).entrySet()) {
                AllocationRecord r = byOwner.get(h.getValue());
                PoolState home = r == null ? null : pools.get(r.pool());
                if (home != null && home != p && home.pieceOf(h.getKey()) != null) {
                    elsewhere++;
                }
            }
        }
        return p.usage(elsewhere);
    }

    private void hold(AllocationRecord r) {
        version++;
        byOwner.put(r.owner(), r);
        holderByAddress.put(r.address(), r.owner());
        for (PoolState p : pools.values()) {
            Piece piece = p.pieceOf(r.address());
            if (piece != null) {
                if (!piece.entry.free.take(IpAddress.ipv4(r.address()))) {
                    if (isReserved(r.address())) {
                        p.reservedFree--;
                    } else if (p.arp() && excluded.contains(r.address())) {
                        p.excludedFree--;
                    }
                }
                p.held++;
            }
        }
    }

    private void addEntry(PoolState p, PoolEntry entry) {
        EntryState es = new EntryState(entry);
        p.entryStates.add(es);
        p.entries.add(entry);
        AddressRange usable = entry.usable();
        // the parts of this entry no earlier entry of the pool covers
        long cursor = usable.first();
        Map.Entry<Long, Piece> before = p.pieces.floorEntry(cursor);
        if (before != null && before.getValue().last >= cursor) {
            cursor = before.getValue().last + 1;
        }
        List<long[]> parts = new ArrayList<>();
        if (cursor > usable.last()) {
            return; // earlier entries cover all of it
        }
        for (Piece next : p.pieces.subMap(cursor, true, usable.last(), true).values()) {
            if (next.first > cursor) {
                parts.add(new long[] {cursor, next.first - 1});
            }
            cursor = next.last + 1;
        }
        if (cursor <= usable.last()) {
            parts.add(new long[] {cursor, usable.last()});
        }
        for (long[] part : parts) {
            addPiece(p, es, part[0], part[1]);
        }
    }

    private void addPiece(PoolState p, EntryState es, long first, long last) {
        p.pieces.put(first, new Piece(es, first, last));
        p.usable += last - first + 1;
        fillPiece(p, es, first, last);
    }

    /** The piece's reserved parts count as held or reserved; the rest is filled address by address. */
    private void fillPiece(PoolState p, EntryState es, long first, long last) {
        long cursor = first;
        for (AddressRange r : clip(reserved, first, last)) {
            if (r.first() > cursor) {
                fillOpen(p, es, cursor, r.first() - 1);
            }
            int heldInside = holderByAddress.subMap(r.first(), true, r.last(), true).size();
            p.held += heldInside;
            p.reservedFree += r.size() - heldInside;
            cursor = r.last() + 1;
        }
        if (cursor <= last) {
            fillOpen(p, es, cursor, last);
        }
    }

    private void fillOpen(PoolState p, EntryState es, long first, long last) {
        // free = part minus held minus (arp) excluded, built in one ordered pass over the blocked addresses
        Iterator<Long> held = holderByAddress.subMap(first, true, last, true).keySet().iterator();
        NavigableSet<Long> ex = p.arp() ? excluded.subSet(first, true, last, true) : new TreeSet<>();
        Iterator<Long> exIt = ex.iterator();
        long cursor = first;
        Long h = held.hasNext() ? held.next() : null;
        Long x = exIt.hasNext() ? exIt.next() : null;
        while (h != null || x != null) {
            long blocked;
            if (x == null || (h != null && h <= x)) {
                blocked = h;
                p.held++;
                if (x != null && x.longValue() == h.longValue()) {
                    x = exIt.hasNext() ? exIt.next() : null;
                }
                h = held.hasNext() ? held.next() : null;
            } else {
                blocked = x;
                p.excludedFree++;
                x = exIt.hasNext() ? exIt.next() : null;
            }
            if (blocked > cursor) {
                es.free.add(ipv4Range(cursor, blocked - 1));
            }
            cursor = blocked + 1;
        }
        if (cursor <= last) {
            es.free.add(ipv4Range(cursor, last));
        }
    }

    private static IpRange ipv4Range(long first, long last) {
        return new IpRange(IpAddress.ipv4(first), IpAddress.ipv4(last));
    }

    private static boolean isPrefix(List<PoolEntry> prefix, List<PoolEntry> list) {
        if (prefix.size() > list.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            PoolEntry a = prefix.get(i);
            PoolEntry b = list.get(i);
            if (!a.range().equals(b.range()) || a.prefixLength() != b.prefixLength()) {
                return false;
            }
        }
        return true;
    }

    private static final class PoolState {
        final String name;
        final String mode;
        final List<PoolEntry> entries = new ArrayList<>();
        final List<EntryState> entryStates = new ArrayList<>();
        /** Disjoint pieces of usable addresses by first address, each owned by one entry. */
        final TreeMap<Long, Piece> pieces = new TreeMap<>();
        long usable;
        long held;
        long excludedFree;
        /** Unheld addresses inside reserved ranges. */
        long reservedFree;

        PoolState(String name, String mode) {
            this.name = name;
            this.mode = mode;
        }

        boolean arp() {
            return JuneauConstants.MODE_ARP.equals(mode);
        }

        List<EntryState> entries() {
            return entryStates;
        }

        Piece pieceOf(long address) {
            Map.Entry<Long, Piece> e = pieces.floorEntry(address);
            return e != null && e.getValue().last >= address ? e.getValue() : null;
        }

        PoolUsage usage(long heldElsewhere) {
            return new PoolUsage(name, usable - excludedFree - reservedFree, held - heldElsewhere, heldElsewhere);
        }

        boolean overlaps(PoolState other) {
            for (Piece piece : pieces.values()) {
                Map.Entry<Long, Piece> e = other.pieces.floorEntry(piece.last);
                if (e != null && e.getValue().last >= piece.first) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final class EntryState {
        final PoolEntry entry;
        final AddressIntervals free = new AddressIntervals();

        EntryState(PoolEntry entry) {
            this.entry = entry;
        }
    }

    private static final class Piece {
        final EntryState entry;
        final long first;
        final long last;

        Piece(EntryState entry, long first, long last) {
            this.entry = entry;
            this.first = first;
            this.last = last;
        }
    }
}
