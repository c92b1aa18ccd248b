package me.loutres.juneau.controller;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.reconcile.KubeWriter;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the Lease watch show the present when a node's Lease deadline has passed on the clock but not yet in what the
 * watch has shown (docs/operations.md, "Node liveness after an outage"). Without it the next Lease event — the
 * leader's own renewal, every retry period (2 s by default), when no agent renews often — decided when the node was
 * called dead: up to a retry period late. The leader writes the renew time of now into its tick Lease
 * ({@link #NAME_SUFFIX}); the watch delivers events in the order they were written, so when the tick's event arrives,
 * every renewal written before it has arrived too and the horizon it moves to is true.
 *
 * <p>One write at a time, coalesced: every node waiting on the watch is judged again by the one tick. Only the leader
 * writes (through {@link KubeWriter}, fenced by its term); a tick that fails leaves the leader's renewals to move the
 * horizon, as before, and a conflict (a tick written before the echo of the last) is tried again once.
 */
final class WatchTick implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WatchTick.class);
    /** The tick Lease is the leader Lease's name with this suffix, in the same namespace. */
    static final String NAME_SUFFIX = "-watch-tick";
    private static final long CONFLICT_RETRY_MILLIS = 50;

    private final KubeWriter writer;
    private final ClusterCache cache;
    private final Supplier<Term> term;
    private final Clock clock;
    private final String namespace;
    private final String name;
    private final String identity;
    private final ControllerMetrics metrics;
    private final AtomicBoolean queued = new AtomicBoolean();
    /** The last failure said at WARN: the same one again is DEBUG (a tick is asked for on every late Lease). */
    private volatile String lastWarned;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "juneau-watch-tick");
        t.setDaemon(true);
        return t;
    });

    WatchTick(KubeWriter writer, ClusterCache cache, Supplier<Term> term, Clock clock, String namespace,
            String leaseName, String identity, ControllerMetrics metrics) {
        this.writer = writer;
        this.metrics = metrics;
        this.cache = cache;
        this.term = term;
        this.clock = clock;
        this.namespace = namespace;
        this.name = leaseName + NAME_SUFFIX;
        this.identity = identity;
    }

    /** Asks for a tick written from now on; one already queued and not yet started answers this request too. */
    void request() {
        request(0, true);
    }

    private void request(long delayMillis, boolean retry) {
        if (!queued.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.schedule(() -> write(retry), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            queued.set(false);
        }
    }

    private void write(boolean retry) {
        queued.set(false); // a request from here on is for a later instant than this tick shows: it gets its own
        Term t = term.get();
        if (t == null || !t.active()) {
            return;
        }
        try {
            writer.tick(t, namespace, name, identity, clock.instant(), cache.lease(name));
            lastWarned = null;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 && retry) {
                // a tick written before the echo of the last one: expected now and then, tried again once
                LOG.debug("watch tick Lease {}/{} not written: {}", namespace, name, e.getMessage());
                request(CONFLICT_RETRY_MILLIS, false);
                return;
            }
            failed("HTTP " + e.getCode(), e.getMessage());
        } catch (me.loutres.juneau.runtime.LostLeadershipException e) {
            return; // deposed meanwhile: the next leader ticks for itself
        } catch (RuntimeException e) {
            failed(e.getClass().getSimpleName(), e.toString());
        }
    }

    /** WARN once per distinct failure, DEBUG after; counted every time. */
    private void failed(String reason, String detail) {
        metrics.watchTickFailed(reason);
        String said = reason + ": " + detail;
        if (!said.equals(lastWarned)) {
            lastWarned = said;
            LOG.warn("watch tick Lease {}/{} not written ({}); a node whose Lease ran out is judged on this leader's"
                    + " renewals instead, up to a retry period later: {}", namespace, name, reason, detail);
        } else {
            LOG.debug("watch tick Lease {}/{} not written again: {}", namespace, name, detail);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
