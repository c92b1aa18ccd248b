package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import me.loutres.juneau.plan.WatchedTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records how far the controller's Lease watch has shown time ({@link WatchedTime}, docs/operations.md, "Node liveness
 * after an outage"). Every Lease of the namespace is a clock: the controller's own leader Lease is renewed every retry
 * period and the owning agents' every second, each event carrying its renew time. The horizon is the latest of
 * them, never later than the event's arrival (an agent clock running ahead proves nothing).
 *
 * <p>A gap is a silence longer than {@code silence} (the leader's retry period plus a margin): no event arrived for
 * that long, or the renew times jumped by that much (the events queued through an outage come out with their old
 * times first). It is how a frozen API server, a cut watch, a relist or this process being stopped looks from
 * here; kept are the last {@link #KEPT} gaps, the only ones a Lease of a few seconds can fall in.
 */
public final class LeaseWatchHorizon {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseWatchHorizon.class);
    static final int KEPT = 16;

    private final Clock clock;
    private volatile Duration silence;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private Instant horizon;
    private Instant lastArrival;
    private final Deque<WatchedTime.Gap> gaps = new ArrayDeque<>();
    private volatile WatchedTime snapshot = new WatchedTime(null, List.of());

    public LeaseWatchHorizon(Clock clock, Duration silence) {
        this.clock = clock;
        this.silence = silence;
    }

    /** The longest quiet of the watch that is not an outage (the leader renews every retry period). */
    public void silence(Duration d) {
        this.silence = d;
    }

    /** Runs after every advance of the horizon (the Lease checks waiting for a later instant look again). */
    public void onAdvance(Runnable r) {
        listeners.add(r);
    }

    /** A Lease event arrived (added, renewed, released). */
    public void saw(Lease lease) {
        Instant at = clock.instant();
        Instant renewed = renewTime(lease);
        boolean advanced;
        synchronized (this) {
            // a Lease without times (released, say) shows that events arrive, not how far the stream has come
            Instant shown = renewed == null ? null : renewed.isAfter(at) ? at : renewed;
            boolean silent = lastArrival != null && Duration.between(lastArrival, at).compareTo(silence) > 0;
            boolean jumped = horizon != null && shown != null && Duration.between(horizon, shown).compareTo(silence) > 0;
            if ((silent || jumped) && horizon != null) {
                gaps.addLast(new WatchedTime.Gap(horizon, at));
                while (gaps.size() > KEPT) {
                    gaps.removeFirst();
                }
                LOG.info("the Lease watch was silent from {} to {}: every node's agent gets a full Lease duration"
                        + " from now before it is judged dead", horizon, at);
            }
            lastArrival = at;
            advanced = shown != null && (horizon == null || shown.isAfter(horizon));
            if (advanced) {
                horizon = shown;
            }
            snapshot = new WatchedTime(horizon, List.copyOf(gaps));
        }
        if (advanced) {
            listeners.forEach(Runnable::run);
        }
    }

    /** What the watch has shown so far. */
    public WatchedTime watched() {
        return snapshot;
    }

    private static Instant renewTime(Lease l) {
        var spec = l == null ? null : l.getSpec();
        if (spec == null) {
            return null;
        }
        var t = spec.getRenewTime() != null ? spec.getRenewTime() : spec.getAcquireTime();
        return t == null ? null : t.toInstant();
    }
}
