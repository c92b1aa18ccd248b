package me.loutres.juneau.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io} Lease with fabric8's {@link LeaderElector}. fabric8's elector
 * ends for good once leadership is lost, so this class starts a new one each time: a replica that lost the Lease
 * goes back to standing by and can win it again.
 *
 * <p>Callbacks run on one dedicated thread, in order: {@code onStart(term)} then {@code onStop(term)}.
 */
public final class Leadership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    /** Lease timing; renewDeadline < leaseDuration so a leader stops before anyone else may start. */
    public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        private static String millis(Duration d) {
            return d.toMillis() + "ms";
        }

        /** client-go's defaults: 15 s, 10 s, 2 s. */
        public static Timing defaults() {
            return new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
        }

        public Timing {
            if (renewDeadline.compareTo(leaseDuration) >= 0 || retryPeriod.compareTo(renewDeadline) >= 0) {
                throw new IllegalArgumentException("lease timing needs --retry-period < --renew-deadline <"
                        + " --lease-duration, got " + millis(retryPeriod) + " < " + millis(renewDeadline) + " < "
                        + millis(leaseDuration));
            }
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String leaseName;
    private final String identity;
    private final Timing timing;
    private final Consumer<Term> onStart;
    private final Consumer<Term> onStop;
    private final ExecutorService callbacks;
    private final ScheduledExecutorService electorThreads;
    private final AtomicLong terms = new AtomicLong();
    private final LeaseReads reads;
    private final AtomicReference<Term> current = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<?>> running = new AtomicReference<>();
    private volatile String observedLeader;
    private volatile boolean closed;
    private final LongSupplier nanos;
    /** When the last Lease write naming this replica started (monotonic): the start of the next term's time. */
    private volatile long lastWriteStartedAt;
    /** Ends a term that ran out of time although fabric8's elector has not noticed (its renew may hang). */
    private final ScheduledExecutorService watchdog;

    public Leadership(KubernetesClient client, String namespace, String leaseName, String identity, Timing timing,
            Consumer<Term> onStart, Consumer<Term> onStop) {
        this(client, namespace, leaseName, identity, timing, onStart, onStop, LeaseReads.NONE);
    }

    public Leadership(KubernetesClient client, String namespace, String leaseName, String identity, Timing timing,
            Consumer<Term> onStart, Consumer<Term> onStop, LeaseReads reads) {
        this(client, namespace, leaseName, identity, timing, onStart, onStop, reads, System::nanoTime);
    }

    /** With the monotonic clock the terms' deadlines are measured on ({@link System#nanoTime} outside tests). */
    public Leadership(KubernetesClient client, String namespace, String leaseName, String identity, Timing timing,
            Consumer<Term> onStart, Consumer<Term> onStop, LeaseReads reads, LongSupplier nanos) {
        this.nanos = Objects.requireNonNull(nanos);
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "juneau-term-watchdog"));
        this.reads = Objects.requireNonNull(reads);
        this.client = client;
        this.namespace = namespace;
        this.leaseName = leaseName;
        this.identity = identity;
        this.timing = timing;
        this.onStart = onStart;
        this.onStop = onStop;
        this.callbacks = Executors.newSingleThreadExecutor(r -> daemon(r, "juneau-leadership"));
        this.electorThreads = Executors.newScheduledThreadPool(1, r -> daemon(r, "juneau-lease"));
    }

    public void start() {
        long period = Math.max(1, timing.retryPeriod().toMillis() / 4);
        watchdog.scheduleWithFixedDelay(this::checkExpiry, period, period, TimeUnit.MILLISECONDS);
        campaign();
    }

    private void campaign() {
        if (closed) {
            return;
        }
        LeaderElector elector = new LeaderElectorBuilder(client, electorThreads).withConfig(new LeaderElectionConfigBuilder()
                .withName(leaseName)
                .withLock(new UpdatingLeaseLock(namespace, leaseName, identity, reads, nanos, this::budget,
                        this::written))
                .withLeaseDuration(timing.leaseDuration())
                .withRenewDeadline(timing.renewDeadline())
                .withRetryPeriod(timing.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::newLeader))
                .build()).build();
        CompletableFuture<?> f = elector.start();
        running.set(f);
        f.whenComplete((v, t) -> {
            stopped();
            if (!closed) {
                if (t != null && !(t instanceof java.util.concurrent.CancellationException)) {
                    LOG.warn("leader election for Lease {}/{} ended: {}", namespace, leaseName, t.toString());
                }
                // stand by again: another elector campaigns for the Lease after one retry period
                electorThreads.schedule(this::campaign, timing.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }

    /** The time left in the current term, bounding each Lease call; null when not leading. */
    private Duration budget() {
        Term t = current.get();
        return t == null ? null : t.remaining();
    }

    private void written(long startedAt) {
        lastWriteStartedAt = startedAt;
        Term t = current.get();
        if (t != null) {
            t.renewed(startedAt);
        }
    }

    /**
     * The term expired by itself (no successful renew within the renew deadline): its writes have stopped already;
     * this ends it for the callbacks and stops fabric8's elector, whose renew may still hang, so the replica stands by
     * and campaigns again.
     */
    private void checkExpiry() {
        Term t = current.get();
        if (t == null || !t.expired()) {
            return;
        }
        LOG.warn("leadership on Lease {}/{} expired: no successful renew within {} ms ({})", namespace, leaseName,
                timing.renewDeadline().toMillis(), t);
        stopped();
        CompletableFuture<?> f = running.get();
        if (f != null) {
            f.cancel(true);
        }
    }

    private void started() {
        Term t = new Term(terms.incrementAndGet(), nanos, timing.renewDeadline(), lastWriteStartedAt);
        Term previous = current.getAndSet(t);
        if (previous != null) {
            previous.end();
        }
        LOG.info("became leader on Lease {}/{} as {} ({})", namespace, leaseName, identity, t);
        callbacks.execute(() -> onStart.accept(t));
    }

    private void stopped() {
        Term t = current.getAndSet(null);
        if (t != null && t.end()) {
            LOG.info("lost leadership on Lease {}/{} ({}); standing by", namespace, leaseName, t);
            callbacks.execute(() -> onStop.accept(t));
        }
    }

    private void newLeader(String leader) {
        if (!Objects.equals(leader, observedLeader)) {
            observedLeader = leader;
            if (leader != null && !leader.equals(identity)) {
                LOG.info("Lease {}/{} is held by {}", namespace, leaseName, leader);
            }
        }
    }

    public boolean isLeader() {
        Term t = current.get();
        return t != null && t.active();
    }

    public String identity() {
        return identity;
    }

    /** Stops campaigning; a held Lease is released so a standby takes over at once. */
    @Override
    public void close() {
        closed = true;
        CompletableFuture<?> f = running.get();
        if (f != null) {
            f.cancel(true);
        }
        stopped();
        watchdog.shutdownNow();
        electorThreads.shutdown();
        callbacks.shutdown();
        try {
            callbacks.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
