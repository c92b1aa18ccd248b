package me.loutres.juneau.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs reconcilers: each {@link Registration} gets a de-duplicating {@link WorkQueue} and N worker threads, which
 * run only during a {@link Term} — while this replica holds the Lease ({@link #startLeaderElection}) or, for a
 * per-node process, from {@link #startWithoutLeaderElection} to {@link #close}.
 *
 * <p>A term starts with the {@link TermStart} hook (e.g. rebuild state from a fresh list), then the workers start.
 * When it ends the workers stop, every queue is cleared (the next term starts from a full resync) and the
 * {@code onTermEnd} hook runs. A hook or worker that dies of an unexpected throwable makes the runtime
 * {@link #failed()}: it ends the term, gives up the Lease so a standby takes over, and stays failed (the
 * process's probes report it; Kubernetes restarts it).
 */
public final class ControllerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerRuntime.class);
    private static final Duration TAKE_TIMEOUT = Duration.ofMillis(200);

    /** Prepares a term before its workers start; false gives the term up quietly (it ended meanwhile). */
    @FunctionalInterface
    public interface TermStart {
        boolean prepare(Term term) throws Exception;
    }

    private final String name;
    private final RuntimeMetrics metrics;
    private final List<Worked<?>> registrations = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private TermStart onTermStart = t -> true;
    private Consumer<Term> onTermEnd = t -> {
    };
    private Leadership leadership;
    private volatile Term running;
    private volatile Term starting;
    private volatile String failure;
    private volatile boolean started;
    private volatile boolean closed;

    public ControllerRuntime(String name, RuntimeMetrics metrics) {
        this.name = name;
        this.metrics = Objects.requireNonNull(metrics);
    }

    /** Adds a reconciler (before {@code start}); returns its queue, where event handlers put keys. */
    public synchronized <K> WorkQueue<K> register(Registration<K> r) {
        if (started) {
            throw new IllegalStateException("register reconcilers before the runtime starts");
        }
        WorkQueue<K> q = new WorkQueue<>(name + "-" + r.queue());
        registrations.add(new Worked<>(r, q, new Backoff<>(r.backoffBase(), r.backoffMax())));
        metrics.queue(r.queue(), q);
        return q;
    }

    public synchronized void onTermStart(TermStart hook) {
        this.onTermStart = Objects.requireNonNull(hook);
    }

    public synchronized void onTermEnd(Consumer<Term> hook) {
        this.onTermEnd = Objects.requireNonNull(hook);
    }

    /** Campaigns for the Lease; workers run while it is held. Returns at once. */
    public synchronized void startLeaderElection(KubernetesClient client, String namespace, String leaseName,
            String identity, Leadership.Timing timing) {
        startLeaderElection(client, namespace, leaseName, identity, timing, LeaseReads.NONE);
    }

    /** As above; {@code reads} hears whether each Lease read reached the API server. */
    public synchronized void startLeaderElection(KubernetesClient client, String namespace, String leaseName,
            String identity, Leadership.Timing timing, LeaseReads reads) {
        markStarted();
        leadership = new Leadership(client, namespace, leaseName, identity, timing, this::lead, this::standBy, reads);
        leadership.start();
    }

    /** One term from now until {@link #close} (a per-node agent: every replica works). Returns at once. */
    public synchronized void startWithoutLeaderElection() {
        markStarted();
        Term t = new Term(1);
        Thread th = new Thread(() -> lead(t), name + "-term");
        th.setDaemon(true);
        th.start();
    }

    private void markStarted() {
        if (started) {
            throw new IllegalStateException("the runtime is started once");
        }
        started = true;
    }

    /** Workers are running for an active term. */
    public boolean leading() {
        Term t = running;
        return t != null && t.active() && failure == null;
    }

    /** The current term's workers may write (for callers that check before a side effect). */
    public Term currentTerm() {
        return running;
    }

    /** A hook or worker died unexpectedly; the runtime gave up its term for good. */
    public boolean failed() {
        return failure != null;
    }

    /** Why it failed, or null. */
    public String failure() {
        return failure;
    }

    private void lead(Term term) {
        starting = term;
        try {
            if (!onTermStart.prepare(term) || !term.active() || closed) {
                return;
            }
            synchronized (workers) {
                if (!term.active()) {
                    return;
                }
                for (Worked<?> w : registrations) {
                    for (int i = 0; i < w.reg.workers(); i++) {
                        workers.add(thread(name + "-" + w.reg.kind() + "-" + term.number() + "-" + i,
                                () -> work(w, term)));
                    }
                }
                running = term;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (LostLeadershipException e) {
            LOG.debug("{} ended while it started", term);
        } catch (Throwable e) {
            fail("starting " + term, e);
        } finally {
            starting = null;
        }
    }

    private void standBy(Term term) {
        term.end();
        joinWorkers();
        if (running == term) {
            running = null;
        }
        registrations.forEach(w -> w.queue.clear());
        try {
            onTermEnd.accept(term);
        } catch (RuntimeException e) {
            LOG.warn("{}: ending {} failed: {}", name, term, e.toString(), e);
        }
    }

    private void joinWorkers() {
        List<Thread> stopping;
        synchronized (workers) {
            stopping = new ArrayList<>(workers);
            workers.clear();
        }
        for (Thread t : stopping) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private <K> void work(Worked<K> w, Term term) {
        try {
            while (term.active() && !closed) {
                K key = w.queue.take(TAKE_TIMEOUT);
                if (key != null) {
                    reconcileOne(w, term, key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            fail("a " + w.reg.kind() + " worker", e);
        }
    }

    private <K> void reconcileOne(Worked<K> w, Term term, K key) {
        long t0 = System.nanoTime();
        String outcome = "ok";
        try {
            Result r = w.reg.reconciler().reconcile(key, term);
            if (r.failed()) {
                outcome = r.cause();
                w.queue.addAfter(key, w.backoff.next(key, r.retryBase(), r.retryCap()));
            } else {
                w.backoff.forget(key);
                if (r.requeue()) {
                    w.queue.addAfter(key, r.requeueAfter());
                }
            }
        } catch (LostLeadershipException e) {
            outcome = "lost-leadership";
        } catch (KubernetesClientException e) {
            int code = e.getCode();
            outcome = code == 409 ? "conflict" : code == 404 ? "gone" : "api-error";
            w.reg.reconciler().failed(key, e);
            Duration d = w.backoff.next(key);
            if (code == 409 || code == 404) {
                // the object changed or went away since the cache showed it: look again from fresh data
                LOG.debug("{} {}: {} ({}); retrying in {} ms", w.reg.kind(), key, code, firstLine(e), d.toMillis());
            } else {
                LOG.warn("{} {}: API error {} ({}); retrying in {} ms", w.reg.kind(), key, code, firstLine(e),
                        d.toMillis());
            }
            w.queue.addAfter(key, d);
        } catch (RuntimeException e) {
            outcome = "error";
            w.reg.reconciler().failed(key, e);
            Duration d = w.backoff.next(key);
            LOG.warn("{} {}: reconcile failed: {}; retrying in {} ms", w.reg.kind(), key, e, d.toMillis(), e);
            w.queue.addAfter(key, d);
        } catch (Exception e) {
            outcome = "error";
            w.reg.reconciler().failed(key, e);
            Duration d = w.backoff.next(key);
            LOG.warn("{} {}: reconcile failed: {}; retrying in {} ms", w.reg.kind(), key, e, d.toMillis());
            w.queue.addAfter(key, d);
        } finally {
            w.queue.done(key);
            metrics.reconciled(w.reg.kind(), outcome, Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    /**
     * Once only: a hook or a worker died. A leader that reconciles nothing must not keep the Lease, so the term
     * ends and the Lease is released (from another thread: this may be the leadership callback thread itself).
     */
    private void fail(String where, Throwable e) {
        synchronized (this) {
            if (failure != null || closed) {
                return;
            }
            failure = where + " died: " + e;
        }
        LOG.error("{}: {}; giving up leadership and reporting unhealthy", name, failure, e);
        Term t = running != null ? running : starting;
        if (t != null) {
            t.end();
        }
        Thread giveUp = new Thread(() -> {
            if (leadership != null) {
                leadership.close();
            }
            if (t != null) {
                standBy(t);
            }
        }, name + "-give-up");
        giveUp.setDaemon(true);
        giveUp.start();
    }

    /** Stops: a held Lease is released so a standby takes over at once; in-flight reconciles finish or stop. */
    @Override
    public void close() {
        Leadership l;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            l = leadership;
        }
        if (l != null) {
            l.close();
        }
        Term t = running != null ? running : starting;
        if (t != null && t.active()) {
            standBy(t);
        }
        joinWorkers();
        running = null;
        registrations.forEach(w -> w.queue.close());
    }

    private static Thread thread(String name, Runnable r) {
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

    private record Worked<K>(Registration<K> reg, WorkQueue<K> queue, Backoff<K> backoff) {
    }
}
