package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import me.loutres.juneau.allocation.AllocationConflict;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.AllocatorView;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.plan.AllocatorOp;
import me.loutres.juneau.view.LearntRange;

/**
 * The allocator of one leadership term, kept in step with the AddressPools and Nodes of the informer caches.
 * A new term starts with a new book, filled from the ServiceLoadBalancer statuses before the first allocation.
 */
public final class AllocationBook {
    private final Allocator allocator = new Allocator();
    /** What each pool was last synced from (mode and entries), to skip re-parsing an unchanged pool. */
    private final Map<String, List<String>> synced = new ConcurrentHashMap<>();
    private final Map<String, List<String>> problems = new ConcurrentHashMap<>();
    private volatile Set<Long> nodeAddresses = Set.of();

    /**
     * Brings the allocator's view of the pool up to date, through the shared feed: an entry that does not parse
     * offers no address (and is logged), the pool's other entries stay in use.
     */
    public void syncPool(AddressPool pool) {
        String name = pool.getMetadata().getName();
        String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
        List<String> entries = pool.getSpec() == null || pool.getSpec().getAddresses() == null ? List.of()
                : pool.getSpec().getAddresses();
        List<String> signature = new java.util.ArrayList<>(entries.size() + 1);
        signature.add(String.valueOf(mode));
        signature.addAll(entries);
        if (signature.equals(synced.get(name))) {
            return;
        }
        synchronized (this) {
            if (signature.equals(synced.get(name))) {
                return;
            }
            AllocatorFeed.PoolFeed feed = AllocatorFeed.pool(pool);
            // admission refuses such entries; one written around it is reported (logged, event, metric) by the
            // pool's reconcile through MalformedReports, once per change of the pool
            problems.put(name, feed.problems());
            feed.into(allocator);
            synced.put(name, List.copyOf(signature));
        }
    }

    /** The entries of the pool that offer no address (unparsable, reversed ranges ...), as one-line problems. */
    public List<String> problems(String pool) {
        return problems.getOrDefault(pool, List.of());
    }

    public synchronized void removePool(String name) {
        allocator.removePool(name);
        synced.remove(name);
        problems.remove(name);
    }

    public Set<String> knownPools() {
        return Set.copyOf(synced.keySet());
    }

    /** Node InternalIPs are never handed out from arp pools; true when the set changed. */
    public boolean syncNodes(Collection<Node> nodes) {
        Set<Long> addrs = AllocatorFeed.nodeAddresses(nodes);
        if (addrs.equals(nodeAddresses)) {
            return false;
        }
        synchronized (this) {
            nodeAddresses = addrs;
            allocator.setExcludedAddresses(addrs);
        }
        return true;
    }

    private volatile List<LearntRange> learnt = List.of();

    /**
     * The ranges the cluster says it uses (ServiceCIDRs, Nodes' podCIDRs) are never handed out from any pool
     * (docs/allocation.md, "Pools overlapping the cluster's ranges"); true when the set changed. The cache hands the
     * same list until a range changes, so an unchanged set costs one comparison.
     */
    public boolean syncLearntRanges(List<LearntRange> ranges) {
        if (ranges == learnt) {
            return false;
        }
        synchronized (this) {
            if (ranges == learnt) {
                return false;
            }
            learnt = ranges;
            allocator.setReservedRanges(ranges.stream().map(LearntRange::range).toList());
        }
        return true;
    }

    /** Unheld addresses of the pool in a learnt range: never handed out, not in its total. */
    public long reservedCount(String pool) {
        return allocator.reservedCount(pool);
    }

    /** VIPs of the pool held inside a learnt range (allocated before it was learnt; kept). */
    public List<AllocationRecord> heldInReserved(String pool) {
        return allocator.heldInReserved(pool);
    }

    public List<AllocationConflict> restore(List<AllocationRecord> records) {
        synchronized (this) {
            allocator.restore(records);
            return allocator.lastRestoreConflicts();
        }
    }

    /**
     * Takes the VIP a status records for its owner as the record of truth — whoever wrote it — and settles a second
     * claim on an address: the older allocation keeps it ({@code claimantOlder}, see {@link Allocator#claim}).
     */
    public synchronized ClaimOutcome claim(AllocationRecord record, BiPredicate<String, String> claimantOlder) {
        return allocator.claim(record, claimantOlder);
    }

    /**
     * The allocator as it is now, read-only, for one pass's plan (docs/design.md): no copy is made; its version
     * lets {@link #commit} tell whether a decision taken from it still holds.
     */
    public AllocatorView view(BiPredicate<String, String> claimantOlder) {
        return AllocatorView.of(allocator, claimantOlder);
    }

    /**
     * Carries out an allocation a plan decided from a view taken at version {@code seen}, atomically with the check:
     * unchanged allocator, or one that still answers the same; false, and nothing changed, when the plan is stale.
     */
    public boolean commit(String owner, AllocatorOp.Allocate a, long seen) {
        synchronized (allocator) {
            if (allocator.version() != seen
                    && !a.result().equals(allocator.wouldAllocate(owner, a.pools(), a.requested()))) {
                return false;
            }
            allocator.allocate(owner, a.pools(), a.requested());
            return true;
        }
    }

    /**
     * Carries out a claim as the plan saw it settled; empty, and nothing changed, when the allocator would now
     * settle it otherwise (the order of age reads the cache, so the claim is checked again whatever the version).
     */
    public Optional<ClaimOutcome> commit(AllocatorOp.Claim c, BiPredicate<String, String> claimantOlder) {
        synchronized (allocator) {
            if (!c.outcome().equals(allocator.wouldClaim(c.record(), claimantOlder))) {
                return Optional.empty();
            }
            return Optional.of(allocator.claim(c.record(), claimantOlder));
        }
    }

    public AllocationResult allocate(String owner, List<String> poolOrder, OptionalLong requested) {
        return allocator.allocate(owner, poolOrder, requested);
    }

    public Optional<AllocationRecord> release(String owner) {
        return allocator.release(owner);
    }

    public Optional<AllocationRecord> allocationOf(String owner) {
        return allocator.allocationOf(owner);
    }

    public PoolUsage usage(String pool) {
        return allocator.usage(pool);
    }

    public List<AllocationRecord> records() {
        return allocator.records();
    }

    public boolean holds(String owner, long address) {
        return allocator.allocationOf(owner).map(r -> r.address() == address).orElse(false);
    }
}
