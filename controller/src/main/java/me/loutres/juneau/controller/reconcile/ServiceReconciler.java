package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Service;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.plan.DesiredService;
import me.loutres.juneau.plan.Lifecycle;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.plan.ServiceSnapshot;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;

/**
 * One pass over a Service key (docs/design.md, "The path of one Service"): read one {@link ServiceSnapshot}, ask
 * {@link ServicePlanner#pass} once for the whole desired state, let {@link ServiceApplier} make the cluster match
 * it. Nothing is decided here.
 *
 * <p>One planner call per pass, on every path. The allocator is in the snapshot as a read-only view of the term's
 * book: the plan decides what it would answer (allocate this address from that pool, keep, settle a claim, reserve
 * a malformed status's address — never allocate for one) and names that answer; the applier commits it only while
 * the book still answers so, else the pass is stale and starts over before writing anything. What only the API
 * server answers — the generation the shell's write gives, a refused advertisement — fills placeholders of the
 * returned plan ({@link DesiredService#statusOn}, {@link DesiredService#refused}), not a second plan.
 */
public final class ServiceReconciler {
    /** A write the API server refused is retried from 1 s, doubling, up to every 5 minutes (docs/phases-and-conditions.md). */
    static final Duration DENIED_RETRY_BASE = Duration.ofSeconds(1);
    static final Duration DENIED_RETRY_CAP = Duration.ofMinutes(5);

    private final ServiceSnapshots snapshots;
    private final ServiceApplier applier;
    /** Which Services are ours (--manage-unclassed), the decision the webhook shares. */
    private final ManagedServices managed;
    /** {@link ServicePlanner#pass}; a test counts its calls through here. */
    private final Function<ServiceSnapshot, DesiredService> planner;

    public ServiceReconciler(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, Clock clock, MalformedReports malformed, boolean arpWithoutAgents, ManagedServices managed) {
        this(cache, writer, events, metrics, requeue, clock, malformed, arpWithoutAgents, managed, ServicePlanner::pass);
    }

    ServiceReconciler(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, Clock clock, MalformedReports malformed, boolean arpWithoutAgents, ManagedServices managed,
            Function<ServiceSnapshot, DesiredService> planner) {
        ServiceMemory memory = new ServiceMemory(clock);
        this.managed = managed;
        this.planner = planner;
        this.snapshots = new ServiceSnapshots(cache, clock, managed, arpWithoutAgents, memory);
        this.applier = new ServiceApplier(cache, writer, events, metrics, requeue, malformed, memory);
    }

    /**
     * A previous leader stops at most a lease duration before a standby takes over (docs/operations.md): an
     * allocation younger than twice that, plus 10 s for the restore and clock skew, may be unannounced.
     */
    public void leaseDuration(Duration lease) {
        snapshots.reannounceWindow(lease.multipliedBy(2).plusSeconds(10));
    }

    public boolean isManaged(Service svc) {
        return managed.manages(svc);
    }

    public Result reconcile(ServiceKey key, LeaderState st) {
        Term term = st.term();
        term.ensureActive();
        ServiceSnapshot snapshot = snapshots.read(key, st);
        DesiredService plan = planner.apply(snapshot);
        if (plan.lifecycle() != Lifecycle.RECONCILE) {
            applier.teardown(key, snapshot, plan, st);
            return Result.DONE;
        }
        if (!applier.commitAllocation(key, snapshot, plan, st)) {
            // the book changed under the plan so that its answer no longer holds: nothing written, plan again now
            return Result.after(Duration.ZERO);
        }
        ServiceLoadBalancer slb = applier.writeSlb(term, key, snapshot.slb(), plan.slb());
        if (!ServiceApplier.asPlanned(plan.slb(), slb)) {
            // what the API server returned is not what was written: look again from a fresh read
            return Result.retry("shell-changed", DENIED_RETRY_BASE, DENIED_RETRY_CAP);
        }
        applier.pending(key, plan.pending(), st);
        WriteDenial denial = applier.writeArp(term, key, snapshot.arp(), plan.arp());
        if (denial != null) {
            plan = plan.refused(denial); // the plan's own answer to a refusal: the status says WriteDenied
        }
        boolean refused = applier.finish(key, snapshot, slb, plan, st);
        return denial == null && !refused ? Result.DONE
                : Result.retry("write-denied", DENIED_RETRY_BASE, DENIED_RETRY_CAP);
    }
}
