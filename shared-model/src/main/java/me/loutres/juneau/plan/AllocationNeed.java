package me.loutres.juneau.plan;

import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.status.AllocationState;

/** What the allocator has to do for one Service, decided before it is asked (docs/phases-and-conditions.md steps 2–3). */
public sealed interface AllocationNeed {

    /** {@code status.vip} is set and stays (a set VIP never changes): claim it in the allocator. */
    record Keep(String vip, long address, String pool, AllocationState state) implements AllocationNeed {
    }

    /** Nothing to allocate and the answer is already known (network unusable, requested IP invalid). */
    record Decided(AllocationState state) implements AllocationNeed {
    }

    /** Ask the allocator: pools in network order, with the requested address if any. */
    record Allocate(String network, List<String> pools, OptionalLong requested) implements AllocationNeed {
        public Allocate {
            pools = List.copyOf(pools);
        }
    }

    /**
     * The status cannot be read (a VIP without a pool, an unparsable VIP): leave the object alone, say so, and keep
     * its address reserved when it parses (never hand out what someone may be using).
     */
    record Malformed(String message, OptionalLong address) implements AllocationNeed {
    }
}
