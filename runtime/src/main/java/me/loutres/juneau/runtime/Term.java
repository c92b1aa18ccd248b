package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One period of leadership. Every write checks its term first, so a controller that has lost the Lease stops
 * writing even in the middle of a reconcile (the new leader may already be allocating).
 *
 * <p>A leader's term also expires by itself: it is active only while its last successful Lease write started less
 * than the renew deadline ago, on a monotonic clock. Nothing has to notice the loss — a renew stuck on a frozen
 * connection, a paused process, a busy elector thread — for the writes to stop: they check the time, not a flag
 * somebody clears. A standby may take the Lease only a lease duration after it saw the last renew, which is later
 * than this deadline (docs/operations.md, "Leader election").
 */
public final class Term {
    private static final long UNBOUNDED = Long.MAX_VALUE;

    private final long number;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final LongSupplier nanos;
    private final long deadlineNanos;
    private final AtomicLong renewedAt;

    /** A term that ends only when {@link #end()} is called (per-node workers, which hold no Lease). */
    public Term(long number) {
        this.number = number;
        this.nanos = System::nanoTime;
        this.deadlineNanos = UNBOUNDED;
        this.renewedAt = new AtomicLong();
    }

    /**
     * A leader's term.
     *
     * @param monotonicNanos a monotonic clock ({@link System#nanoTime} outside tests)
     * @param renewDeadline  how long after the start of its last successful Lease write the term stays active
     * @param renewedAt      when the Lease write that won the term started, on that clock
     */
    public Term(long number, LongSupplier monotonicNanos, Duration renewDeadline, long renewedAt) {
        this.number = number;
        this.nanos = monotonicNanos;
        this.deadlineNanos = renewDeadline.toNanos();
        this.renewedAt = new AtomicLong(renewedAt);
    }

    public long number() {
        return number;
    }

    /** Not ended, and (for a leader) its last renew is younger than the renew deadline. */
    public boolean active() {
        return !ended.get() && remainingNanos() > 0;
    }

    /** True when the term ran out of time rather than being ended. */
    public boolean expired() {
        return deadlineNanos != UNBOUNDED && remainingNanos() <= 0;
    }

    /** Time left before the term expires unless renewed; zero once ended or expired. */
    public Duration remaining() {
        if (ended.get()) {
            return Duration.ZERO;
        }
        long r = remainingNanos();
        return r == UNBOUNDED ? Duration.ofNanos(Long.MAX_VALUE) : Duration.ofNanos(Math.max(0, r));
    }

    private long remainingNanos() {
        if (deadlineNanos == UNBOUNDED) {
            return UNBOUNDED;
        }
        // subtraction of nanoTime values, never a comparison of them (they may wrap)
        return deadlineNanos - (nanos.getAsLong() - renewedAt.get());
    }

    /**
     * A Lease write that started at {@code startedAt} (on the term's clock) succeeded: the term runs until the renew
     * deadline after it. Too late once the term has expired: a term never comes back to life.
     */
    public void renewed(long startedAt) {
        if (active()) {
            renewedAt.accumulateAndGet(startedAt, (a, b) -> b - a > 0 ? b : a);
        }
    }

    /** @throws LostLeadershipException when the term has ended or expired */
    public void ensureActive() {
        if (!active()) {
            throw new LostLeadershipException(number);
        }
    }

    /** Ends the term; returns false when it had already ended. */
    public boolean end() {
        return !ended.getAndSet(true);
    }

    @Override
    public String toString() {
        return "term " + number + (active() ? " (active)" : expired() && !ended.get() ? " (expired)" : " (ended)");
    }
}
