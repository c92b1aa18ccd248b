package me.loutres.juneau.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One period of leadership. Every write checks its term first, so a controller that has lost the Lease stops
 * writing even in the middle of a reconcile (the new leader may already be allocating).
 */
public final class Term {
    private final long number;
    private final AtomicBoolean active = new AtomicBoolean(true);

    public Term(long number) {
        this.number = number;
    }

    public long number() {
        return number;
    }

    public boolean active() {
        return active.get();
    }

    /** @throws LostLeadershipException when the term has ended */
    public void ensureActive() {
        if (!active.get()) {
            throw new LostLeadershipException(number);
        }
    }

    /** Ends the term; returns false when it had already ended. */
    public boolean end() {
        return active.getAndSet(false);
    }

    @Override
    public String toString() {
        return "term " + number + (active() ? " (active)" : " (ended)");
    }
}
