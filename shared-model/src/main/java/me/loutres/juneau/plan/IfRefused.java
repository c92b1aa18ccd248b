package me.loutres.juneau.plan;

import me.loutres.juneau.status.AllocationState;

/**
 * What a {@link DesiredService} becomes when the API server refuses its advertisement: the status step again with
 * the refusal as the status's problem, over the same decisions (ARP action, allocation, shell, waiting list). Pure
 * data and a pure function, so the controller needs no second plan for the refusal (docs/design.md).
 */
public final class IfRefused {
    private final ServiceSnapshot snapshot;
    private final StatusParts parts;
    private final SlbWrite write;
    private final AllocatorOp op;
    private final AllocationState allocation;
    private final PendingChange pending;

    IfRefused(ServiceSnapshot snapshot, StatusParts parts, SlbWrite write, AllocatorOp op, AllocationState allocation,
            PendingChange pending) {
        this.snapshot = snapshot;
        this.parts = parts;
        this.write = write;
        this.op = op;
        this.allocation = allocation;
        this.pending = pending;
    }

    DesiredService apply(WriteDenial denial) {
        return PassPlanner.settle(snapshot, parts, write, op, allocation, pending, denial);
    }
}
