package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watched cache the controller, the agent and the webhook read the cluster from: one informer per kind
 * ({@link Watched}), started and stopped together, answering from memory (no API call per read), kept through an
 * API server outage. An unreachable API server, at start or later, is retried with backoff for as long as the cache
 * runs (without this, fabric8 stops an informer for good when its first list fails) and is said through the one
 * {@link ApiConnection}: once when it goes, once when it is back. A monitor notices what the informers do not
 * report: the first sync (logged once with its time), and a watch that closed and reconnects silently.
 */
public final class WatchedCache implements AutoCloseable {
    static final Logger LOG = LoggerFactory.getLogger(WatchedCache.class);
    /** Consecutive checks without a watch before a synced cache counts as lost (a watch is re-opened in between). */
    static final int LOST_AFTER_CHECKS = 4;
    /**
     * The same before the first watch after the sync is seen: the informers open their watches only after their
     * lists, which on a busy machine takes longer than a re-open, and saying "down" then would be a false alarm.
     */
    static final int FIRST_WATCH_CHECKS = 40;

    /**
     * How the informers run.
     *
     * @param resync     periodic resync of the handlers (zero: none, every change arrives as an event)
     * @param listLimit  page size of the lists (0: one response), bounding response sizes on large clusters
     * @param checkEvery how often the monitor looks at the watches; zero: no monitor thread, the owner calls
     *                   {@link #check()} from a loop of its own
     * @param clock      the clock of {@link Watched#notWatchingSince}
     * @param lostAfter  looks in a row without a watch after which a synced cache says the API server is gone
     *                   ({@link #LOST_AFTER_CHECKS}); 0: never from the watches alone, where another path (the
     *                   leader election's Lease reads) tells of an outage sooner and without false alarms
     */
    public record Policy(Duration resync, long listLimit, Duration checkEvery, Clock clock, int lostAfter) {
        /** No resync, no paging, a look every second. */
        public static final Policy DEFAULT = new Policy(Duration.ZERO, 0, Duration.ofSeconds(1), Clock.systemUTC(),
                LOST_AFTER_CHECKS);

        public Policy withListLimit(long limit) {
            return new Policy(resync, limit, checkEvery, clock, lostAfter);
        }

        public Policy checkingEvery(Duration every) {
            return new Policy(resync, listLimit, every, clock, lostAfter);
        }

        public Policy withClock(Clock c) {
            return new Policy(resync, listLimit, checkEvery, c, lostAfter);
        }

        /** The watches' state alone never says the API server is gone; an outage on another path does. */
        public Policy outagesFromOtherPaths() {
            return new Policy(resync, listLimit, checkEvery, clock, 0);
        }
    }

    private final String name;
    private final ApiConnection connection;
    private final Policy policy;
    private final List<Watched<?>> all = new CopyOnWriteArrayList<>();
    private final long startNanos = System.nanoTime();
    private volatile boolean closed;
    private ScheduledExecutorService monitor;
    private boolean syncedOnce;
    private int failures;
    private int checksWithoutWatch;
    private boolean watchedSinceSync;

    /**
     * @param name       what the log calls the cache ("cluster view", "controller caches")
     * @param connection where the cache says the API server went and came back
     */
    public WatchedCache(String name, ApiConnection connection, Policy policy) {
        this.name = name;
        this.connection = connection;
        this.policy = policy;
    }

    /** Adds a kind, from {@code source} (a client's resource, namespace, label or field selection). */
    public <T extends HasMetadata> Watched<T> watch(String kind, Informable<T> source) {
        Watched<T> w = new Watched<>(this, kind, source, policy.listLimit(), policy.resync().toMillis());
        all.add(w);
        return w;
    }

    /** Starts every informer and the monitor; the future completes when every served kind holds its first list. */
    public synchronized CompletableFuture<Void> start() {
        long every = policy.checkEvery().toMillis();
        if (every > 0) {
            monitor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "juneau-watch-" + name.replace(' ', '-'));
                t.setDaemon(true);
                return t;
            });
            monitor.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
        }
        long now = now();
        return CompletableFuture.allOf(all.stream().map(w -> w.start(now)).toArray(CompletableFuture[]::new));
    }

    /** The kinds the cache depends on: all but an optional one the API server does not serve. */
    private List<Watched<?>> live() {
        return all.stream().filter(Watched::served).toList();
    }

    /** Every served kind holds its first list: before that, the cache cannot be trusted. */
    public boolean synced() {
        return live().stream().allMatch(Watched::hasSynced);
    }

    /** Every served kind has a live watch (false during an outage, while the cache goes stale). */
    public boolean watching() {
        return live().stream().allMatch(Watched::isWatching);
    }

    /**
     * The kinds whose informer stopped for good while the cache is open (they never do while retrying; a broken
     * one does): only a restart helps, so liveness fails with these names. Empty while informers run or retry.
     */
    public List<String> stopped() {
        return closed ? List.of() : live().stream().filter(Watched::stopped).map(Watched::kind).toList();
    }

    /** Whether the API server is reachable as far as every path of the connection knows. */
    public ApiConnection connection() {
        return connection;
    }

    long now() {
        return policy.clock().millis();
    }

    /** An informer's list or watch failed: retried with its backoff, said once, unless we closed it ourselves. */
    boolean failed(Watched<?> w, Throwable t) {
        if (closed) {
            return false; // a request cut short by our own close: nothing to say
        }
        if (w.notServed(t)) {
            return false;
        }
        synchronized (this) {
            failures++;
        }
        connection.failed(name, "listing/watching " + w.kind() + ": " + ApiConnection.firstLine(t));
        return true;
    }

    void stoppedForGood(Watched<?> w, SharedIndexInformer<?> informer, Throwable t) {
        if (!closed && w.served() && w.isCurrent(informer)) {
            LOG.error("{}: the {} watch stopped for good ({}); liveness fails so that the process is restarted",
                    name, w.kind(), t == null ? "no reason given" : ApiConnection.firstLine(t));
        }
    }

    /**
     * One look of the monitor (or of the owner's loop where there is none): the first sync ends an outage at start; after it,
     * a watch seen down for {@link Policy#lostAfter} looks in a row is an outage, and every watch open again ends
     * it (also an outage another path reported).
     */
    public synchronized void check() {
        long now = now();
        boolean watching = true;
        for (Watched<?> w : live()) {
            watching &= w.watching(now);
        }
        check(synced(), watching);
    }

    synchronized void check(boolean synced, boolean watching) {
        if (!syncedOnce) {
            if (synced) {
                syncedOnce = true;
                LOG.info("{} synced in {} ms{}", name, (System.nanoTime() - startNanos) / 1_000_000,
                        failures == 0 ? "" : " (after " + failures + " failed attempts)");
                connection.ok(name);
                checksWithoutWatch = 0;
                watchedSinceSync = watching;
            }
            return;
        }
        if (watching) {
            checksWithoutWatch = 0;
            watchedSinceSync = true;
            connection.ok(name);
            return;
        }
        checksWithoutWatch++;
        if (policy.lostAfter() > 0
                && checksWithoutWatch == (watchedSinceSync ? policy.lostAfter() : FIRST_WATCH_CHECKS)) {
            // fabric8 reconnects a lost watch itself (with backoff) without calling the exception handler
            connection.failed(name, "a watch closed; reconnecting");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (monitor != null) {
            monitor.shutdownNow();
        }
        all.forEach(Watched::stop);
    }
}
