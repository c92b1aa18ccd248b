package me.loutres.juneau.controller;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.controller.reconcile.AllocationRestore;
import me.loutres.juneau.controller.reconcile.EventRecorder;
import me.loutres.juneau.controller.reconcile.KubeWriter;
import me.loutres.juneau.controller.reconcile.LeaderState;
import me.loutres.juneau.controller.reconcile.MalformedReports;
import me.loutres.juneau.controller.reconcile.NetworkReconciler;
import me.loutres.juneau.controller.reconcile.PoolReconciler;
import me.loutres.juneau.controller.reconcile.Requeue;
import me.loutres.juneau.controller.reconcile.ServiceReconciler;
import me.loutres.juneau.runtime.ControllerRuntime;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.runtime.MicrometerRuntimeMetrics;
import me.loutres.juneau.runtime.Reconciler;
import me.loutres.juneau.runtime.Registration;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.runtime.WorkQueue;
import me.loutres.juneau.runtime.ops.OpsServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller (docs/phases-and-conditions.md): informers feed de-duplicating work queues (Service keys, AddressPool names, and
 * ExternalNetwork names for what cannot be read in them);
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
    /** Added to the retry period: the longest quiet of the Lease watch that is not an outage. */
    private static final Duration LEASE_SILENCE_MARGIN = Duration.ofSeconds(1);
    private static final Duration RETRY_BASE = Duration.ofMillis(20);
    private static final Duration RETRY_MAX = Duration.ofSeconds(60);

    private final ControllerOptions options;
    private final ControllerMetrics metrics = new ControllerMetrics();
    private final ClusterCache cache;
    private final KubeWriter writer;
    private final ControllerRuntime runtime;
    private final WorkQueue<ServiceKey> services;
    private final WorkQueue<String> pools;
    private final WorkQueue<String> networks;
    private final Set<String> poolsScheduled = ConcurrentHashMap.newKeySet();
    private final ServiceReconciler serviceReconciler;
    private final PoolReconciler poolReconciler;
    private final NetworkReconciler networkReconciler;
    private final AtomicReference<LeaderState> state = new AtomicReference<>();
    private final EventRouter router;
    private final NodeLivenessWatch liveness;
    private final WatchTick watchTick;
    private final DeadNodeSessions deadNodeSessions;
    private final CompletableFuture<Void> synced;
    private final AllocationRestore restore;
    private OpsServer ops;
    private volatile boolean closed;

    private JuneauController(KubernetesClient client, ControllerOptions options) {
        this.options = options;
        // the leader renews its Lease (in the agents' namespace) every retry period: a longer silence of the Lease
        // watch is an outage, after which node liveness forgives what it could not see (docs/operations.md)
        this.cache = new ClusterCache(client, options.namespace(), options.clock(),
                options.lease().retryPeriod().plus(LEASE_SILENCE_MARGIN));
        this.writer = new KubeWriter(client, cache);
        this.restore = new AllocationRestore(client, cache, metrics);
        this.runtime = new ControllerRuntime("juneau", new MicrometerRuntimeMetrics(metrics.registry()));
        this.services = runtime.register(Registration.of("service", "services", serviceWork())
                .withWorkers(options.workers()).withBackoff(RETRY_BASE, RETRY_MAX));
        this.pools = runtime.register(Registration.of("pool", "pools", poolWork())
                .withBackoff(RETRY_BASE, RETRY_MAX));
        this.networks = runtime.register(Registration.of("network", "networks", networkWork())
                .withBackoff(RETRY_BASE, RETRY_MAX));
        runtime.onTermStart(this::lead);
        runtime.onTermEnd(this::standBy);
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

            @Override
            public void network(String name) {
                networks.add(name);
            }
        };
        EventRecorder events = new EventRecorder(writer, options.identity(), options.clock());
        MalformedReports malformed = new MalformedReports(events, metrics);
        this.serviceReconciler = new ServiceReconciler(cache, writer, events, metrics, requeue, options.clock(),
                malformed, options.arpWithoutAgents(), options.managed());
        serviceReconciler.leaseDuration(options.lease().leaseDuration());
        this.poolReconciler = new PoolReconciler(cache, writer, requeue, malformed, options.clock());
        this.networkReconciler = new NetworkReconciler(cache, malformed);
        this.deadNodeSessions = new DeadNodeSessions(client, writer, () -> {
            LeaderState st = state.get();
            return st == null ? null : st.term();
        }, cache, options.clock());
        this.watchTick = new WatchTick(writer, cache, () -> {
            LeaderState st = state.get();
            return st == null ? null : st.term();
        }, options.clock(), options.namespace(), options.leaseName(), options.identity(), metrics);
        this.liveness = new NodeLivenessWatch(cache, requeue, options.clock(), () -> state.get() != null,
                deadNodeSessions::dead, watchTick::request);
        this.router = new EventRouter(cache, requeue, () -> state.get() != null, liveness, options.managed());
        router.register();
        this.synced = cache.start();
    }

    /** Starts informers, the ops endpoints and the campaign for the Lease; returns at once. */
    public static JuneauController start(KubernetesClient client, ControllerOptions options) {
        JuneauController c = new JuneauController(client, options);
        try {
            if (options.metricsPort() >= 0) {
                c.ops = OpsServer.onAllInterfaces(options.metricsPort(), c::isHealthy, c::isReady, c.metrics::scrape);
            }
        } catch (IOException e) {
            c.close();
            throw new UncheckedIOException("cannot serve /healthz, /readyz, /metrics on port " + options.metricsPort()
                    + ": " + e.getMessage(), e);
        }
        c.runtime.startLeaderElection(client, options.namespace(), options.leaseName(), options.identity(),
                options.lease(), c.cache.leaseReads());
        LOG.info("controller {} started (Lease {}/{}, {} workers{})", options.identity(), options.namespace(),
                options.leaseName(), options.workers(), c.ops == null ? "" : ", metrics on port " + c.ops.port());
        return c;
    }

    /**
     * Informer caches hold their initial lists (true for a standby as well) and the runtime has not failed (a
     * leader whose loop died gave up its Lease and must not look ready).
     */
    public boolean isReady() {
        return !closed && cache.synced() && !runtime.failed();
    }

    /**
     * Alive: not stuck. False once the runtime failed (a loop or term hook died; the Lease was given up) or an
     * informer stopped for good, so the liveness probe restarts the process. An unreachable API server is not
     * stuck: the informers and the Lease campaign retry with backoff, and {@link #isReady} says not ready.
     */
    public boolean isHealthy() {
        return !closed && !runtime.failed() && !cache.stopped();
    }

    public boolean isLeader() {
        return state.get() != null && runtime.leading();
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

    /** Term start: wait for the caches, rebuild the allocator from a fresh list, then queue everything once. */
    private boolean lead(Term term) throws Exception {
        while (!synced.isDone() && term.active() && !closed) {
            try {
                synced.get(200, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // keep waiting while we hold the Lease
            }
        }
        if (synced.isCompletedExceptionally()) {
            synced.join();
        }
        LeaderState st = restore.restore(term, () -> closed);
        if (st == null) {
            return false;
        }
        state.set(st);
        queueEverything();
        return true;
    }

    /** The state of the given term; a worker of an ended term must not touch the next term's allocator. */
    private LeaderState stateOf(Term term) {
        LeaderState st = state.get();
        if (st == null || st.term() != term) {
            throw new LostLeadershipException(term.number());
        }
        return st;
    }

    private Reconciler<ServiceKey> serviceWork() {
        return new Reconciler<>() {
            @Override
            public Result reconcile(ServiceKey key, Term term) {
                return serviceReconciler.reconcile(key, stateOf(term));
            }

            @Override
            public void failed(ServiceKey key, Exception e) {
                if (e instanceof KubernetesClientException) {
                    writer.conflicted(key);
                }
            }
        };
    }

    private Reconciler<String> poolWork() {
        return new Reconciler<>() {
            @Override
            public Result reconcile(String name, Term term) {
                poolsScheduled.remove(name);
                Result r = poolReconciler.reconcile(name, stateOf(term));
                if (cache.pool(name) == null) {
                    metrics.forgetPool(name);
                }
                return r;
            }

            @Override
            public void failed(String name, Exception e) {
                if (e instanceof KubernetesClientException) {
                    cache.recentPools().forget(name);
                }
            }
        };
    }

    private Reconciler<String> networkWork() {
        return (name, term) -> networkReconciler.reconcile(name, stateOf(term));
    }

    /**
     * A new term looks at everything once: every pool, every network, every managed Service (oldest first), every
     * SLB.
     */
    private void queueEverything() {
        cache.networks().forEach(n -> networks.add(n.getMetadata().getName()));
        cache.pools().forEach(p -> {
            watchPool(p.getMetadata().getName());
            pools.add(p.getMetadata().getName());
        });
        Set<ServiceKey> seen = new TreeSet<>();
        cache.services().stream().filter(serviceReconciler::isManaged)
                .sorted(Comparator.comparing((Service s) -> String.valueOf(s.getMetadata().getCreationTimestamp()))
                        .thenComparing(ServiceKey::of))
                .forEach(s -> {
                    ServiceKey k = ServiceKey.of(s);
                    seen.add(k);
                    services.add(k);
                });
        cache.serviceLoadBalancers().stream().map(ServiceKey::of).filter(k -> !seen.contains(k)).forEach(services::add);
    }

    /** Term end (the runtime has stopped the workers and cleared the queues). */
    private void standBy(Term term) {
        LeaderState st = state.get();
        if (st != null && st.term() == term) {
            state.compareAndSet(st, null);
        }
        poolsScheduled.clear();
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

    /**
     * Waits (bounded) until the watch streams have gone quiet before closing them: the informers see the echoes of
     * the last writes (a clean hand-over).
     */
    private void awaitQuietWatches(Duration quiet, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline
                && (cache.unobservedWrites() > 0 || System.nanoTime() - router.lastEventNanos() < quiet.toNanos())) {
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
        if (closed) {
            return;
        }
        closed = true;
        runtime.close();
        state.set(null);
        liveness.close();
        watchTick.close();
        deadNodeSessions.close();
        awaitQuietWatches(Duration.ofMillis(300), Duration.ofSeconds(5));
        cache.close();
        if (ops != null) {
            ops.close();
        }
        LOG.info("controller {} stopped", options.identity());
    }
}
