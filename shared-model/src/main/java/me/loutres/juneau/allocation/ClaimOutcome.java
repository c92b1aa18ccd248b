package me.loutres.juneau.allocation;

import java.util.Optional;

/**
 * What {@link Allocator#claim} made of an address a ServiceLoadBalancer status records — whoever wrote it (this
 * leader, a previous or a stale one, a person). Two claims on one address never both stand: the older allocation
 * keeps it (docs/allocation.md, "Two claims on one address").
 */
public sealed interface ClaimOutcome {

    /** The owner already held exactly this address: nothing changed. */
    record Held() implements ClaimOutcome {
    }

    /**
     * The owner now holds the address; {@code replaced} is the address it held before (now free), if any: the
     * status is the record of truth, so an address it no longer records is not kept for it.
     */
    record Learnt(Optional<AllocationRecord> replaced) implements ClaimOutcome {
    }

    /** Another owner holds the address and its allocation is older: it keeps it, the claim is refused. */
    record Lost(AllocationRecord holder) implements ClaimOutcome {
    }

    /**
     * Another owner held the address but the claim is older: the address moves to the claimant, {@code loser} must be
     * told (its status records an address it no longer holds); {@code replaced} as in {@link Learnt}.
     */
    record Won(AllocationRecord loser, Optional<AllocationRecord> replaced) implements ClaimOutcome {
    }
}
