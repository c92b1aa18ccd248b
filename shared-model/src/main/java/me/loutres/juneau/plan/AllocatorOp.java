package me.loutres.juneau.plan;

import java.util.List;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.AllocationRecord;

/** What the allocator must do in one pass (docs/allocation.md); the controller's allocator book carries it out. */
public sealed interface AllocatorOp {

    /** Nothing (the answer is known, or nothing is held). */
    record None() implements AllocatorOp {
    }

    /** {@code status.vip} is the record of truth: learn it, settle a second claim on it (the older one keeps it). */
    record Claim(AllocationRecord record, String vip) implements AllocatorOp {
    }

    /** Hand out an address: pools in network order, the requested one if any. */
    record Allocate(String network, List<String> pools, OptionalLong requested) implements AllocatorOp {
        public Allocate {
            pools = List.copyOf(pools);
        }
    }

    /** The Service is gone: its address is free again. */
    record Release() implements AllocatorOp {
    }

    /**
     * The status cannot be read: keep what it records reserved, the way the restore does (under the pool whose
     * entries contain it; an unparsable VIP keeps the address the Service's ingress shows).
     */
    record ReserveRecorded(List<String> ingress) implements AllocatorOp {
        public ReserveRecorded {
            ingress = List.copyOf(ingress);
        }
    }
}
