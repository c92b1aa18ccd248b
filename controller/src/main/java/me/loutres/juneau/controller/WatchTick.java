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
    private final AtomicBoolean queued = new AtomicBoolean();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "juneau-watch-tick");
        t.setDaemon(true);
        return t;
    });

    WatchTick(KubeWriter writer, ClusterCache cache, Supplier<Term> term, Clock clock, String namespace,
            String leaseName, String identity) {
        this.writer = writer;
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
        } catch (KubernetesClientException e) {
            LOG.debug("watch tick Lease {}/{} not written: {}", namespace, name, e.getMessage());
            if (e.getCode() == 409 && retry) {
                request(CONFLICT_RETRY_MILLIS, false);
            }
        } catch (RuntimeException e) {
            LOG.debug("watch tick Lease {}/{} not written: {}", namespace, name, e.toString());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
