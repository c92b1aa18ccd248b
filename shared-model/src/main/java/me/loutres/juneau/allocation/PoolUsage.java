package me.loutres.juneau.allocation;

/**
 * Address counts of one pool; longs so a /8 (and many of them) cannot overflow.
 * See {@link Allocator} for how node addresses excluded from arp pools are counted.
 *
 * @param allocated        addresses of this pool held by Services that got them from this pool
 * @param heldByOtherPools addresses of this pool held through another pool whose ranges overlap it (pools stored
 *                         around admission, docs/allocation.md "Overlapping pools"): not this pool's allocations,
 *                         but not free either
 */
public record PoolUsage(String pool, long total, long allocated, long heldByOtherPools) {

    public PoolUsage(String pool, long total, long allocated) {
        this(pool, total, allocated, 0);
    }

    /** Addresses that can still be handed out. */
    public long free() {
        return Math.max(0, total - allocated - heldByOtherPools);
    }

    /** Addresses that cannot be handed out because someone holds them, through this pool or another. */
    public long used() {
        return allocated + heldByOtherPools;
    }
}
