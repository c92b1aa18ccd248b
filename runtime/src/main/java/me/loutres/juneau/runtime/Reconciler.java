package me.loutres.juneau.runtime;

/**
 * Brings the world in line for one key. Called by the runtime's workers, never twice at once for the same key.
 *
 * <p>Return {@link Result#DONE}, {@link Result#after} (look again later: a deadline, a coalesced write) or
 * {@link Result#retry} (a failure already reported, retried with backoff). Throwing is a failure too: the key is
 * retried with the registration's backoff; {@link LostLeadershipException} just drops the key (the next term
 * redoes everything).
 */
@FunctionalInterface
public interface Reconciler<K> {
    Result reconcile(K key, Term term) throws Exception;

    /**
     * Called after {@link #reconcile} threw, before the retry is scheduled: the place to drop state that the
     * failure made stale (e.g. a written-object overlay after a 409).
     */
    default void failed(K key, Exception e) {
    }
}
