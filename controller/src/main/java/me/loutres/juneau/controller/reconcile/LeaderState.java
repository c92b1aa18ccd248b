package me.loutres.juneau.controller.reconcile;

import me.loutres.juneau.controller.leader.Term;

/** What one leadership term owns: its term (checked before every write), its allocator and its waiting list. */
public record LeaderState(Term term, AllocationBook book, PendingServices pending) {
}
