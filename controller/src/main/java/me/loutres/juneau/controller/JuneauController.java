package me.loutres.juneau.controller;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.allocation.AllocationConflict;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.http.OpsServer;
import me.loutres.juneau.controller.leader.Leadership;
import me.loutres.juneau.controller.leader.LostLeadershipException;
import me.loutres.juneau.controller.leader.Term;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.queue.Backoff;
import me.loutres.juneau.controller.queue.WorkQueue;
import me.loutres.juneau.controller.reconcile.AllocationBook;
import me.loutres.juneau.controller.reconcile.EventRecorder;
import me.loutres.juneau.controller.reconcile.KubeWriter;
import me.loutres.juneau.controller.reconcile.LeaderState;
import me.loutres.juneau.controller.reconcile.Outcome;
import me.loutres.juneau.controller.reconcile.PendingServices;
import me.loutres.juneau.controller.reconcile.PoolReconciler;
import me.loutres.juneau.controller.reconcile.Requeue;
import me.loutres.juneau.controller.reconcile.ServiceReconciler;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller (SPEC §3): informers feed two de-duplicating work queues (Service keys, AddressPool names);
 * while this replica holds the Lease, workers reconcile them. Every replica keeps its caches warm, so a standby
 * that wins the Lease only has to rebuild its allocator — from a fresh list of every ServiceLoadBalancer status —
 * before it allocates anything.
 *
 * <p>Runs in-process against any API server: {@code JuneauController.start(client, options)}, then
 * {@link #close()}.
 */
public final class JuneauController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JuneauController.class);
    /** Pool status writes wait this long so a burst of allocations makes one write, not hundreds. */
    static final Duration POOL_STATUS_COALESCE = Duration.ofMillis(200);
    private static final Duration TAKE_TIMEOUT = Duration.ofMillis(200);

    private final KubernetesClient client;
    private final ControllerOptions options;
    private final ControllerMetrics metrics = new ControllerMetrics();
    private final ClusterCache cache;
    private final KubeWriter writer;
    private final WorkQueue<ServiceKey> services = new WorkQueue<>("juneau-services");
    private final WorkQueue<String> pools = new WorkQueue<>("juneau-pools");
    private final Backoff<ServiceKey> serviceBackoff = new Backoff<>(Duration.ofMillis(20), Duration.ofSeconds(60));
    private final Backoff<String> poolBackoff = new Backoff<>(Duration.ofMillis(20), Duration.ofSeconds(60));
    private final Set<String> poolsScheduled = ConcurrentHashMap.newKeySet();
    private final ServiceReconciler serviceReconciler;
    private final PoolReconciler poolReconciler;
    private final AtomicReference<LeaderState> state = new AtomicReference<>();
    private final List<Thread> workers = new ArrayList<>();
    private final Leadership leadership;
    private final EventRouter router;
    private final CompletableFuture<Void> synced;
    private OpsServer ops;
    private volatile boolean closed;

    private JuneauController(KubernetesClient client, ControllerOptions options) {
        this.client = client;
        this.options = options;
        this.cache = new ClusterCache(client);
        this.writer = new KubeWriter(client, cache);
        Requeue requeue = new Requeue() {
            @Override
            public void service(ServiceKey key) {
                services.add(key);
            }

            @Override
            public void pool(String name) {
                watchPool(name);
                if (poolsScheduled.add(name)) {
                    pools.addAfter(name, POOL_STATUS_COALESCE);
                }
            }
        };
        EventRecorder events = new EventRecorder(writer, options.identity(), options.clock());
        this.serviceReconciler = new ServiceReconciler(cache, writer, events, metrics, requeue, options.clock());
        this.poolReconciler = new PoolReconciler(cache, writer, requeue);
        this.router = new EventRouter(cache, writer, requeue, () -> state.get() != null);
        router.register();
        metrics.queueDepth("services", services::depth);
        metrics.queueDepth("pools", pools::depth);
        this.leadership = new Leadership(client, options.namespace(), options.leaseName(), options.identity(),
                options.lease(), this::lead, this::standBy);
        this.synced = cache.start();
    }

    /** Starts informers, the ops endpoints and the campaign for the Lease; returns at once. */
    public static JuneauController start(KubernetesClient client, ControllerOptions options) {
        JuneauController c = new JuneauController(client, options);
        try {
            if (options.metricsPort() >= 0) {
                c.ops = new OpsServer(options.metricsPort(), () -> !c.closed, c::isReady, c.metrics::scrape);
            }
        } catch (IOException e) {
            c.close();
            throw new UncheckedIOException("cannot serve /healthz, /readyz, /metrics on port " + options.metricsPort()
                    + ": " + e.getMessage(), e);
        }
        c.leadership.start();
        LOG.info("controller {} started (Lease {}/{}, {} workers{})", options.identity(), options.namespace(),
                options.leaseName(), options.workers(), c.ops == null ? "" : ", metrics on port " + c.ops.port());
        return c;
    }

    /** Informer caches hold their initial lists (true for a standby as well). */
    public boolean isReady() {
        return !closed && cache.synced();
    }

    public boolean isLeader() {
        return state.get() != null && leadership.isLeader();
    }

    public String identity() {
        return options.identity();
    }

    /** The port of the ops endpoints, or -1 when none is served. */
    public int metricsPort() {
        return ops == null ? -1 : ops.port();
    }

    public String scrapeMetrics() {
        return metrics.scrape();
    }

    /** Nothing queued, running or waiting for a retry: the cluster is as the controller wants it (for now). */
    public boolean idle() {
        return services.pending() == 0 && pools.pending() == 0;
    }

    /**
     * Idle, and no informer has delivered anything for {@code quiet}: the echoes of the last writes are in too, so
     * nothing more will happen until something changes (for tests, the demo and benchmarks).
     */
    public boolean settled(Duration quiet) {
        return idle() && writer.unobservedWrites() == 0 && System.nanoTime() - router.lastEventNanos() > quiet.toNanos();
    }

    /** Addresses held by the allocator of the current term (empty on a standby), for tests and the demo. */
    public List<AllocationRecord> allocations() {
        LeaderState st = state.get();
        return st == null ? List.of() : st.book().records();
    }

    private void lead(Term term) {
        try {
            while (!synced.isDone() && term.active() && !closed) {
                try {
                    synced.get(200, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // keep waiting while we hold the Lease
                }
            }
            LeaderState st = restore(term);
            if (st == null) {
                return;
            }
            state.set(st);
            queueEverything();
            synchronized (workers) {
                for (int i = 0; i < options.workers(); i++) {
                    workers.add(thread("juneau-worker-" + term.number() + "-" + i, () -> serviceLoop(st)));
                }
                workers.add(thread("juneau-pools-" + term.number(), () -> poolLoop(st)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.error("informers failed to start: {}", e.getCause().toString());
        }
    }

    /**
     * SPEC §3.2: before the first allocation of a term, every ServiceLoadBalancer status is read from the API
     * server itself (not the cache, which may lag behind the previous leader's last writes).
     */
    private LeaderState restore(Term term) throws InterruptedException {
        Backoff<String> retry = new Backoff<>(Duration.ofMillis(200), Duration.ofSeconds(10));
        while (term.active() && !closed) {
            try {
                long t0 = System.nanoTime();
                List<ServiceLoadBalancer> all = listAllServiceLoadBalancers();
                AllocationBook book = new AllocationBook();
                cache.pools().forEach(book::syncPool);
                book.syncNodes(cache.nodes());
                List<AllocationRecord> records = new ArrayList<>();
                all.stream().sorted(Comparator.comparing((ServiceLoadBalancer s) ->
                        String.valueOf(s.getMetadata().getCreationTimestamp())).thenComparing(ServiceKey::of))
                        .forEach(s -> toRecord(s, records));
                List<AllocationConflict> conflicts = book.restore(records);
                conflicts.forEach(c -> LOG.error("restoring allocations: {}", c));
                LOG.info("restored {} allocations from {} ServiceLoadBalancers in {} ms ({})", records.size(),
                        all.size(), (System.nanoTime() - t0) / 1_000_000, term);
                return new LeaderState(term, book, new PendingServices());
            } catch (KubernetesClientException e) {
                Duration d = retry.next("restore");
                LOG.warn("cannot list ServiceLoadBalancers to restore allocations ({}); retrying in {} ms",
                        e.getMessage(), d.toMillis());
                Thread.sleep(d.toMillis());
            }
        }
        return null;
    }

    private List<ServiceLoadBalancer> listAllServiceLoadBalancers() {
        List<ServiceLoadBalancer> all = new ArrayList<>();
        String next = null;
        do {
            var page = client.resources(ServiceLoadBalancer.class).inAnyNamespace()
                    .list(new ListOptionsBuilder().withLimit(500L).withContinue(next).build());
            all.addAll(page.getItems());
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return all;
    }

    private static void toRecord(ServiceLoadBalancer s, List<AllocationRecord> out) {
        if (s.getStatus() == null || s.getStatus().getVip() == null) {
            return;
        }
        try {
            out.add(new AllocationRecord(ServiceKey.of(s).toString(), s.getStatus().getAddressPool(),
                    Ipv4.parse(s.getStatus().getVip())));
        } catch (InvalidAddressException e) {
            LOG.error("ServiceLoadBalancer {} has status.vip \"{}\", not an IPv4 address; ignored", ServiceKey.of(s),
                    s.getStatus().getVip());
        }
    }

    /** A new term looks at everything once: every pool, every managed Service (oldest first), every SLB. */
    private void queueEverything() {
        cache.pools().forEach(p -> {
            watchPool(p.getMetadata().getName());
            pools.add(p.getMetadata().getName());
        });
        Set<ServiceKey> seen = new TreeSet<>();
        cache.services().stream().filter(ServiceReconciler::isManaged)
                .sorted(Comparator.comparing((Service s) -> String.valueOf(s.getMetadata().getCreationTimestamp()))
                        .thenComparing(ServiceKey::of))
                .forEach(s -> {
                    ServiceKey k = ServiceKey.of(s);
                    seen.add(k);
                    services.add(k);
                });
        cache.serviceLoadBalancers().stream().map(ServiceKey::of).filter(k -> !seen.contains(k)).forEach(services::add);
    }

    private void standBy(Term term) {
        LeaderState st = state.get();
        if (st != null && st.term() == term) {
            state.set(null);
        }
        List<Thread> stopping;
        synchronized (workers) {
            stopping = new ArrayList<>(workers);
            workers.clear();
        }
        for (Thread t : stopping) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        // the next term starts from a full resync; anything queued now belongs to the old one
        services.clear();
        pools.clear();
        poolsScheduled.clear();
    }

    private void serviceLoop(LeaderState st) {
        while (st.term().active() && !closed) {
            ServiceKey key;
            try {
                key = services.take(TAKE_TIMEOUT);
            } catch (InterruptedException e) {
                return;
            }
            if (key == null) {
                continue;
            }
            long t0 = System.nanoTime();
            String outcome = "ok";
            try {
                Outcome o = serviceReconciler.reconcile(key, st);
                serviceBackoff.forget(key);
                if (o.requeue()) {
                    services.addAfter(key, o.requeueAfter());
                }
            } catch (LostLeadershipException e) {
                outcome = "lost-leadership";
            } catch (KubernetesClientException e) {
                outcome = e.getCode() == 409 ? "conflict" : e.getCode() == 404 ? "gone" : "api-error";
                writer.conflicted(key);
                Duration d = serviceBackoff.next(key);
                if (e.getCode() == 409 || e.getCode() == 404) {
                    // the object changed or went away since the cache showed it: look again from fresh data
                    LOG.debug("{}: {} ({}); retrying in {} ms", key, e.getCode(), firstLine(e), d.toMillis());
                } else {
                    LOG.warn("{}: API error {} ({}); retrying in {} ms", key, e.getCode(), firstLine(e), d.toMillis());
                }
                services.addAfter(key, d);
            } catch (RuntimeException e) {
                outcome = "error";
                Duration d = serviceBackoff.next(key);
                LOG.warn("{}: reconcile failed: {}; retrying in {} ms", key, e, d.toMillis(), e);
                services.addAfter(key, d);
            } finally {
                services.done(key);
                metrics.reconciled("service", outcome, Duration.ofNanos(System.nanoTime() - t0));
            }
        }
    }

    private void poolLoop(LeaderState st) {
        while (st.term().active() && !closed) {
            String name;
            try {
                name = pools.take(TAKE_TIMEOUT);
            } catch (InterruptedException e) {
                return;
            }
            if (name == null) {
                continue;
            }
            poolsScheduled.remove(name);
            long t0 = System.nanoTime();
            String outcome = "ok";
            try {
                poolReconciler.reconcile(name, st);
                poolBackoff.forget(name);
                if (cache.pool(name) == null) {
                    metrics.forgetPool(name);
                }
            } catch (LostLeadershipException e) {
                outcome = "lost-leadership";
            } catch (KubernetesClientException e) {
                outcome = e.getCode() == 409 ? "conflict" : "api-error";
                writer.recentPools().forget(name);
                pools.addAfter(name, poolBackoff.next(name));
            } catch (RuntimeException e) {
                outcome = "error";
                LOG.warn("AddressPool {}: status update failed: {}", name, e.toString(), e);
                pools.addAfter(name, poolBackoff.next(name));
            } finally {
                pools.done(name);
                metrics.reconciled("pool", outcome, Duration.ofNanos(System.nanoTime() - t0));
            }
        }
    }

    private void watchPool(String name) {
        metrics.watchPool(name, () -> {
            LeaderState st = state.get();
            return st == null ? Double.NaN : st.book().usage(name).total();
        }, () -> {
            LeaderState st = state.get();
            return st == null ? Double.NaN : st.book().usage(name).allocated();
        });
    }

    private Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /**
     * Waits (bounded) until the watch streams have gone quiet before closing them: the informers see the echoes of
     * the last writes (a clean hand-over), and fabric8's mock API server — used by the tests and the demo — blocks
     * its event loop for up to a minute when a watch closes while events for it are still queued.
     */
    private void awaitQuietWatches(Duration quiet, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline
                && (writer.unobservedWrites() > 0 || System.nanoTime() - router.lastEventNanos() < quiet.toNanos())) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops: the Lease is released so a standby takes over at once; in-flight reconciles finish or stop writing. */
    @Override
    public void close() {
        stop(leadership::close, "stopped");
    }

    /**
     * Stops like a crashed process would: the Lease is NOT released, so a standby has to wait for it to expire.
     * For failover tests and the demo.
     */
    public void crash() {
        stop(leadership::abandonWithoutRelease, "stopped without releasing its Lease");
    }

    /** Once only: leave the Lease as told, then stop the workers and informers. */
    private void stop(Runnable leaveLease, String how) {
        if (closed) {
            return;
        }
        closed = true;
        leaveLease.run();
        shutdown();
        LOG.info("controller {} {}", options.identity(), how);
    }

    private void shutdown() {
        LeaderState st = state.getAndSet(null);
        if (st != null) {
            st.term().end();
        }
        List<Thread> stopping;
        synchronized (workers) {
            stopping = new ArrayList<>(workers);
            workers.clear();
        }
        for (Thread t : stopping) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        services.close();
        pools.close();
        awaitQuietWatches(Duration.ofMillis(300), Duration.ofSeconds(5));
        cache.close();
        if (ops != null) {
            ops.close();
        }
    }
}
