package me.loutres.juneau.controller;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.reconcile.Requeue;
import me.loutres.juneau.plan.NodeLiveness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns node agents' Leases into re-queues of the Services with endpoints on a node whose liveness changed
 * (docs/phases-and-conditions.md). A Lease that simply stops being renewed sends no event, so for each live node one timer fires at
 * the instant its Lease runs out; it looks again and, if no renewal came, the node's Services are re-queued and
 * the plan elects another node. Renewals (every second per owning agent) cost nothing more than a map update:
 * only a change alive ↔ dead re-queues.
 *
 * <p>A Lease is judged against the time the Lease watch has shown ({@link me.loutres.juneau.plan.WatchedTime}), not the
 * wall clock: a node whose Lease ran out while the controller could not watch (its own outage) gets a full Lease
 * duration after the watch came back, and an expiry the watch has not shown yet waits for the next event that shows
 * a later instant (docs/operations.md, "Node liveness after an outage"). The leader asks for that event at once
 * ({@link WatchTick}) rather than waiting for its next renewal, up to a retry period later.
 */
final class NodeLivenessWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLivenessWatch.class);

    private final ClusterCache cache;
    private final Requeue requeue;
    private final Clock clock;
    private final BooleanSupplier leading;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "juneau-node-liveness");
        t.setDaemon(true);
        return t;
    });
    /** Nodes last seen dead (absent = alive or judged by endpoints). */
    private final Map<String, Boolean> dead = new ConcurrentHashMap<>();
    private final PendingLeaseChecks pending = new PendingLeaseChecks();
    /** Nodes whose Lease deadline has passed on the clock but not yet in the watch: judged again when it moves. */
    private final java.util.Set<String> awaiting = ConcurrentHashMap.newKeySet();
    /** Nodes with an agent Lease: only they may answer ARP (unless the controller runs without agents). */
    private final java.util.Set<String> withAgent = ConcurrentHashMap.newKeySet();

    /** Told (node, why) when a node becomes dead while this controller leads: its BGPSessions go Unknown. */
    private final java.util.function.BiConsumer<String, String> onDead;

    /** Asks the Lease watch to show the present (a {@link WatchTick}): a deadline passed on the clock is then judged. */
    private final Runnable showNow;

    NodeLivenessWatch(ClusterCache cache, Requeue requeue, Clock clock, BooleanSupplier leading,
            java.util.function.BiConsumer<String, String> onDead, Runnable showNow) {
        this.showNow = showNow;
        this.cache = cache;
        this.requeue = requeue;
        this.clock = clock;
        this.leading = leading;
        this.onDead = onDead;
        cache.leaseHorizon().onAdvance(() -> List.copyOf(awaiting).forEach(n -> judge(n, cache.agentLease(n))));
    }

    /** An agent Lease was added, renewed, released or deleted (null {@code now} = deleted). */
    void observed(String node, Lease now) {
        boolean changed = now == null ? withAgent.remove(node) : withAgent.add(node);
        if (changed && leading.getAsBoolean()) {
            // an agent appeared or went: whether the node may be elected to answer ARP changed
            cache.servicesWithEndpointsOn(node).forEach(requeue::service);
        }
        judge(node, now);
    }

    private void judge(String node, Lease lease) {
        Instant t = clock.instant();
        NodeLiveness.State s = lease == null ? null : NodeLiveness.judge(lease, cache.leaseHorizon().watched());
        boolean isDead = s != null && s.dead();
        Boolean before = dead.put(node, isDead);
        if (before == null ? isDead : before != isDead) {
            LOG.info("node {} is {} by its agent's Lease{}", node, isDead ? "dead" : "alive again",
                    isDead ? " (" + s.why() + "): its VIPs go to other nodes" : "");
            if (leading.getAsBoolean()) {
                cache.servicesWithEndpointsOn(node).forEach(requeue::service);
                if (isDead) {
                    onDead.accept(node, s.why());
                }
            }
        }
        Optional<Instant> expires = s == null || isDead ? Optional.empty() : s.expiresAt();
        if (expires.isPresent() && !expires.get().isAfter(t)) {
            awaiting.add(node); // run out by the clock, not yet by what the watch has shown
            if (leading.getAsBoolean()) {
                showNow.run(); // a tick through the watch shows it now, not at the leader's next renewal
            }
        } else {
            awaiting.remove(node);
            expires.ifPresent(e -> schedule(node, e));
        }
    }

    private void schedule(String node, Instant at) {
        // the earliest pending check per node; the check re-reads the Lease and schedules the next expiry itself
        if (!pending.offer(node, at)) {
            return;
        }
        long delay = Math.max(1, Duration.between(clock.instant(), at).toMillis() + 1);
        try {
            timer.schedule(() -> {
                pending.ended(node, at);
                judge(node, cache.agentLease(node));
            }, delay, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pending.ended(node, at);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
