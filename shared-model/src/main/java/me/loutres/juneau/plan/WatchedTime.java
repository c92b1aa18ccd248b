package me.loutres.juneau.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The time over which the controller has actually seen the agents' Leases (docs/operations.md, "Node liveness after an
 * outage"). A Lease that was not renewed says its node is dead only once the watch has shown a later instant
 * ({@link #horizon}): before that, a renewal may be on its way. And a Lease that ran out while the watch was silent
 * (a {@link Gap}: the API server frozen or cut off, a relist, this process stopped) may have run out because of that
 * same outage — its agent could not renew either — so its node gets one full Lease duration after the watch came
 * back before it is dead. Plain data: one plan reads one instance.
 *
 * @param horizon the latest instant the watch has shown (renew times, never later than when they arrived); null
 *                before anything was seen
 * @param gaps    the silences of the watch, oldest first
 */
public record WatchedTime(Instant horizon, List<Gap> gaps) {
    /**
     * A silence of the watch.
     *
     * @param lastSeen  the horizon before it: everything up to here was seen
     * @param recovered when events arrived again (the controller's clock)
     */
    public record Gap(Instant lastSeen, Instant recovered) {
    }

    public WatchedTime {
        gaps = List.copyOf(gaps);
    }

    /** Everything up to {@code now} was seen without a gap: a reader that judges Leases at one instant. */
    public static WatchedTime until(Instant now) {
        return new WatchedTime(now, List.of());
    }

    /**
     * The earliest instant at which a Lease that runs out at {@code expires} may say its node is dead: the expiry
     * itself when the watch was running then; one {@code duration} after the end of a gap it fell in (or that
     * ended less than a duration before it). A Lease that ran out before a gap began stays run out: the gap does not
     * bring a node that was already dead back.
     */
    public Instant deadline(Instant expires, Duration duration) {
        Instant t = expires;
        for (Gap g : gaps) {
            if (!t.isAfter(g.lastSeen())) {
                break;
            }
            Instant graced = g.recovered().plus(duration);
            if (graced.isAfter(t)) {
                t = graced;
            }
        }
        return t;
    }

    /** Whether the watch has shown {@code t}: a Lease not renewed by then was seen not to be. */
    public boolean shows(Instant t) {
        return horizon != null && !horizon.isBefore(t);
    }
}
