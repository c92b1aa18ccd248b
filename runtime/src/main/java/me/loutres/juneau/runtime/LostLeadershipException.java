package me.loutres.juneau.runtime;

/** A write was attempted after the leadership term ended; the work is dropped, the next leader redoes it. */
public final class LostLeadershipException extends RuntimeException {
    public LostLeadershipException(long term) {
        super("leadership term " + term + " has ended; not writing");
    }
}
