package me.loutres.juneau.plan;

import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.ClaimOutcome;

/**
 * What the allocator must do in one pass (docs/allocation.md), decided by the planner from the snapshot's
 * {@link me.loutres.juneau.allocation.AllocatorView}; the controller's allocator book carries it out. A claim and an
 * allocation name the answer the plan was made with: the book commits them only while it would still answer so.
 */
public sealed interface AllocatorOp {

    /** Nothing (the answer is known, or nothing is held). */
    record None() implements AllocatorOp {
    }

    /**
     * {@code status.vip} is the record of truth: learn it, settle a second claim on it (the older one keeps it).
     * {@code outcome} is what the allocator answered when the plan was made (a {@code Lost} claim changes nothing).
     */
    record Claim(AllocationRecord record, String vip, ClaimOutcome outcome) implements AllocatorOp {
    }

    /**
     * Hand out an address: pools in network order, the requested one if any. {@code result} is the allocator's
     * answer the status was planned with (an address, or why there is none).
     */
    record Allocate(String network, List<String> pools, OptionalLong requested, AllocationResult result)
            implements AllocatorOp {
        public Allocate {
            pools = List.copyOf(pools);
        }
    }

    /** The Service is gone: its address is free again. */
    record Release() implements AllocatorOp {
    }

    /**
     * The status cannot be read: keep what it records reserved, the way the restore does (under the pool whose
     * entries contain it; an unparsable VIP keeps the address the Service's ingress shows). Never an allocation.
     */
    record ReserveRecorded(List<String> ingress) implements AllocatorOp {
        public ReserveRecorded {
            ingress = List.copyOf(ingress);
        }
    }
}
