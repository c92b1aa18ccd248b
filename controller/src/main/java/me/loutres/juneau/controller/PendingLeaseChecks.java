package me.loutres.juneau.controller;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Lease checks waiting to fire, the earliest per node. An agent that starts owning a VIP switches from a 30 s
 * to a 3 s Lease: a check already pending for the old, later expiry must not hide the new, earlier one, or a
 * frozen owner would keep its VIPs for the idle Lease's 30 s instead of the owned one's 3 s.
 */
final class PendingLeaseChecks {
    private final Map<String, Instant> earliest = new ConcurrentHashMap<>();

    /** @return true when a check at {@code when} must be scheduled: none is pending, or the pending one is later */
    boolean offer(String node, Instant when) {
        boolean[] schedule = {false};
        earliest.compute(node, (k, pending) -> {
            if (pending == null || when.isBefore(pending)) {
                schedule[0] = true;
                return when;
            }
            return pending;
        });
        return schedule[0];
    }

    /**
     * The check scheduled for {@code when} is no longer pending: it fired, or it could not be scheduled. Only that
     * check is cleared: a superseded check ending late leaves the earlier one that replaced it pending.
     */
    void ended(String node, Instant when) {
        earliest.remove(node, when);
    }
}
