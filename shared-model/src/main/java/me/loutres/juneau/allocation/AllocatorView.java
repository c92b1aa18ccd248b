package me.loutres.juneau.allocation;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.BiPredicate;

/**
 * A read-only look at the allocator for one pass over a Service (docs/design.md, "The path of one Service"): what it
 * would answer, changing nothing, so the pure planner decides the allocator's work itself. No copy of the book is
 * taken: the view reads the allocator as it is, and {@link #version} says which state the pass started from. The
 * controller carries a decision out only while the allocator still answers it alike (same version, or the same
 * answer again); otherwise the pass is stale and starts over.
 */
public interface AllocatorView {

    /** What {@link Allocator#allocate} would answer for the owner now. */
    AllocationResult wouldAllocate(String owner, List<String> poolOrder, OptionalLong requested);

    /** What {@link Allocator#claim} would make of the record now, in the restore's order of age. */
    ClaimOutcome wouldClaim(AllocationRecord record);

    /** {@link Allocator#version} when the view was taken. */
    long version();

    /** A view of {@code allocator}, claims settled by {@code claimantOlder} (see {@link Allocator#claim}). */
    static AllocatorView of(Allocator allocator, BiPredicate<String, String> claimantOlder) {
        long version = allocator.version();
        return new AllocatorView() {
            @Override
            public AllocationResult wouldAllocate(String owner, List<String> poolOrder, OptionalLong requested) {
                return allocator.wouldAllocate(owner, poolOrder, requested);
            }

            @Override
            public ClaimOutcome wouldClaim(AllocationRecord record) {
                return allocator.wouldClaim(record, claimantOlder);
            }

            @Override
            public long version() {
                return version;
            }
        };
    }
}
