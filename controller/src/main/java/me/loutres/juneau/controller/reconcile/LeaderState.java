package me.loutres.juneau.controller.reconcile;

import me.loutres.juneau.runtime.Term;

/** What one leadership term owns: its term (checked before every write), its allocator and its waiting list. */
public record LeaderState(Term term, AllocationBook book, PendingServices pending) {
}
