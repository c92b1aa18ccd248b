package me.loutres.juneau.plan;

/** A count the pass adds to the controller's metrics (docs/operations.md); {@code reason} for failed allocations. */
public record Tally(Kind kind, String reason) {

    public enum Kind { ALLOCATED, ALLOCATION_FAILED, ARP_NODE_CHANGED, WRITE_DENIED, MALFORMED_STATUS }

    public static Tally of(Kind kind) {
        return new Tally(kind, null);
    }
}
