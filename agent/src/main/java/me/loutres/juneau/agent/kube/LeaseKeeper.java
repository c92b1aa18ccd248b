package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.UnreadableObjectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's liveness Lease {@code juneau-agent-<node>} (docs/phases-and-conditions.md): renewed every second with a 3 s duration
 * while the node answers for a VIP, every 10 s with 30 s otherwise, released (empty holder) on shutdown. The
 * controller stops electing a node whose Lease ran out, so a powered-off owner loses its VIPs within seconds
 * without waiting for the node controller.
 *
 * <p>It also notices that the process itself was frozen (SIGSTOP, a long GC, a suspended VM): a renew loop that
 * wakes up later than the Lease it last wrote has lapsed calls {@code onPause}, because the controller has then
 * probably given the node's VIPs to another node.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final ResourceDefinitionContext LEASES = ResourceDefinitionContext.fromResourceType(Lease.class);

    /** Renew interval and Lease duration while owning and while idle. */
    public record Timing(Duration ownedInterval, Duration ownedDuration, Duration idleInterval, Duration idleDuration) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(1), Duration.ofSeconds(3),
                Duration.ofSeconds(10), Duration.ofSeconds(30));
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final String holder;
    private final Timing timing;
    private final AgentMetrics metrics;
    private final Runnable onPause;
    private volatile java.util.function.Supplier<String> refusedWrites = () -> null;
    private final ApiConnection api;
    private final Thread thread;
    private final Object wake = new Object();
    private volatile boolean owning;
    private volatile boolean stopping;
    private final Clock clock;
    private volatile long heartbeatMillis;
    private volatile long renewedMillis;
    private boolean failureSaid;
    private boolean unreadableSaid;
    private long lastWrittenDurationNanos;
    private long lastRenewNanos;

    public LeaseKeeper(KubernetesClient client, String namespace, String node, String holder, Timing timing,
            AgentMetrics metrics, Runnable onPause, ApiConnection api, Clock clock) {
        this.clock = clock;
        this.heartbeatMillis = clock.millis();
        this.client = client;
        this.namespace = namespace;
        this.name = JuneauConstants.agentLeaseName(node);
        this.holder = holder;
        this.timing = timing;
        this.metrics = metrics;
        this.onPause = onPause;
        this.api = api;
        this.thread = new Thread(this::loop, "juneau-agent-lease");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public String name() {
        return name;
    }

    /** Switches between the owned and idle rhythm; becoming an owner renews at once with the short duration. */
    public void owning(boolean owning) {
        boolean was = this.owning;
        this.owning = owning;
        if (owning && !was) {
            synchronized (wake) {
                wake.notifyAll();
            }
        }
    }

    /** The clock's millis at the last successful renew (0: none yet): the API server answered the agent then. */
    public long renewedMillis() {
        return renewedMillis;
    }

    /** The clock's millis at the last loop turn, for liveness (a renew loop stuck for minutes is worth a restart). */
    public long heartbeatMillis() {
        return heartbeatMillis;
    }

    private void loop() {
        // the pause is measured on System.nanoTime, not the clock: a wall clock stepped forward must not look like
        // a frozen process (which stops answering until a fresh list)
        while (!stopping) {
            long now = System.nanoTime();
            if (lastRenewNanos != 0 && lastWrittenDurationNanos != 0
                    && now - lastRenewNanos > lastWrittenDurationNanos) {
                LOG.warn("the agent did not run for {} ms, longer than its Lease ({} ms): it stops answering until a"
                        + " fresh list says what it still owns", (now - lastRenewNanos) / 1_000_000,
                        lastWrittenDurationNanos / 1_000_000);
                onPause.run();
            }
            boolean own = owning;
            Duration duration = own ? timing.ownedDuration() : timing.idleDuration();
            if (renew(holder, duration)) {
                lastRenewNanos = System.nanoTime();
                lastWrittenDurationNanos = duration.toNanos();
            } else if (lastRenewNanos != 0) {
                // a failed renew does not pause us: the API server may be down, and then nobody moves our VIPs
                lastRenewNanos = System.nanoTime();
            }
            heartbeatMillis = clock.millis();
            Duration interval = own ? timing.ownedInterval() : timing.idleInterval();
            synchronized (wake) {
                if (stopping || (owning && !own)) {
                    continue;
                }
                try {
                    wake.wait(Math.max(1, interval.toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Where the agent's refused writes come from ({@link WriteRefusals#annotation}): each renewal carries them on the
     * Lease, the one object the agent writes whatever else is refused, for the controller to read (docs/design.md).
     */
    public void reportRefusals(java.util.function.Supplier<String> annotation) {
        this.refusedWrites = annotation;
    }

    private void annotateRefusals(Lease lease) {
        String value = refusedWrites.get();
        java.util.Map<String, String> annotations = lease.getMetadata().getAnnotations() == null
                ? new java.util.HashMap<>() : new java.util.HashMap<>(lease.getMetadata().getAnnotations());
        if (value == null) {
            annotations.remove(me.loutres.juneau.plan.RefusedWrites.ANNOTATION);
        } else {
            annotations.put(me.loutres.juneau.plan.RefusedWrites.ANNOTATION, value);
        }
        lease.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
    }

    private synchronized boolean renew(String who, Duration duration) {
        ZonedDateTime now = ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        try {
            Lease lease = read();
            if (lease == null) {
                lease = new Lease();
                lease.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                        .addToLabels("app.kubernetes.io/name", "juneau-agent").build());
                lease.setSpec(spec(who, duration, now, now));
                annotateRefusals(lease);
                client.leases().inNamespace(namespace).resource(lease).create();
            } else {
                LeaseSpec old = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
                boolean sameHolder = who.equals(old.getHolderIdentity());
                ZonedDateTime acquired = sameHolder && old.getAcquireTime() != null ? old.getAcquireTime() : now;
                lease.setSpec(spec(who, duration, acquired, now));
                if (!sameHolder && old.getLeaseTransitions() != null) {
                    lease.getSpec().setLeaseTransitions(old.getLeaseTransitions() + 1);
                } else {
                    lease.getSpec().setLeaseTransitions(old.getLeaseTransitions());
                }
                annotateRefusals(lease);
                client.leases().inNamespace(namespace).resource(lease).update();
            }
            boolean first = renewedMillis == 0;
            renewedMillis = clock.millis();
            api.ok("Lease");
            if (first) {
                LOG.info("Lease {}/{} held (holder {}, {} s)", namespace, name, who.isEmpty() ? "none" : who,
                        duration.toSeconds());
            } else if (failureSaid) {
                LOG.info("Lease {}/{} renewed again (holder {}, {} s)", namespace, name, who.isEmpty() ? "none" : who,
                        duration.toSeconds());
                failureSaid = false;
            }
            return true;
        } catch (KubernetesClientException e) {
            metrics.leaseRenewFailed();
            if (ApiConnection.isOutage(e)) {
                api.failed("Lease", ApiConnection.firstLine(e)); // said once for the whole outage
            } else {
                sayFailure(oneLine(e));
            }
            return false;
        } catch (RuntimeException e) {
            // e.g. a stored Lease this client cannot decode: never let it end the renew loop
            metrics.leaseRenewFailed();
            sayFailure(ApiConnection.firstLine(e));
            return false;
        }
    }

    private void sayFailure(String problem) {
        if (!failureSaid) {
            LOG.warn("cannot renew Lease {}/{}: {}; retrying, and still answering ARP for what this node owns",
                    namespace, name, problem);
            failureSaid = true;
        }
    }

    /**
     * The stored Lease read the one way objects are read (null is absent), or null when there is none. One that
     * cannot be read (a value of the wrong type, written by someone else) is replaced at its resourceVersion: the
     * Lease is this agent's, and a Lease it cannot renew would make the controller give its VIPs away.
     */
    private Lease read() {
        GenericKubernetesResource raw = client.genericKubernetesResources(LEASES).inNamespace(namespace).withName(name)
                .get();
        if (raw == null) {
            return null;
        }
        try {
            Lease lease = KubeObjects.read(KubeObjects.tree(raw), Lease.class, "Lease");
            unreadableSaid = false;
            return lease;
        } catch (UnreadableObjectException e) {
            if (!unreadableSaid) {
                LOG.warn("Lease {}/{} cannot be read ({}); writing it afresh", namespace, name, e.getMessage());
                unreadableSaid = true;
            }
            Lease fresh = new Lease();
            fresh.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                    .withResourceVersion(raw.getMetadata().getResourceVersion())
                    .addToLabels("app.kubernetes.io/name", "juneau-agent").build());
            fresh.setSpec(new LeaseSpec());
            return fresh;
        }
    }

    private static LeaseSpec spec(String who, Duration duration, ZonedDateTime acquired, ZonedDateTime renewed) {
        LeaseSpec s = new LeaseSpec();
        s.setHolderIdentity(who);
        s.setLeaseDurationSeconds((int) Math.max(1, duration.toSeconds()));
        s.setAcquireTime(acquired);
        s.setRenewTime(renewed);
        return s;
    }

    static String oneLine(Exception e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
    }

    /** Releases the Lease (empty holder): the controller treats the node as gone at once, without a timeout. */
    @Override
    public void close() {
        stopping = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (renew("", timing.idleDuration())) {
            LOG.info("Lease {}/{} released", namespace, name);
        }
    }
}
