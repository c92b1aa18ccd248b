package me.loutres.juneau.allocation;

/**
 * Address counts of one pool; longs so a /8 (and many of them) cannot overflow.
 * See {@link Allocator} for how node addresses excluded from arp pools are counted.
 */
public record PoolUsage(String pool, long total, long allocated) {

    /** Addresses that can still be handed out. */
    public long free() {
        return Math.max(0, total - allocated);
    }
}
