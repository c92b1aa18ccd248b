package me.loutres.juneau.plan;

import java.util.OptionalLong;

/** The Service's place on the list of Services waiting for an address (docs/phases-and-conditions.md). */
public sealed interface PendingChange {

    /** Left as it is. */
    record Unchanged() implements PendingChange {
    }

    /** Not waiting (any more). */
    record Stop() implements PendingChange {
    }

    /** Waits for capacity in {@code network}, or for {@code requested} to be released; oldest first. */
    record Wait(String createdAt, String network, OptionalLong requested) implements PendingChange {
    }
}
