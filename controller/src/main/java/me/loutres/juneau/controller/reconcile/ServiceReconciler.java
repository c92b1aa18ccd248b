package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Service;
import java.time.Clock;
import java.time.Duration;
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
import me.loutres.juneau.status.AllocationState;

/**
 * One pass over a Service key (docs/design.md, "The path of one Service"): read one {@link ServiceSnapshot}, ask
 * {@link ServicePlanner#pass} for the whole desired state, let {@link ServiceApplier} make the cluster match it.
 * Nothing is decided here.
 *
 * <p>The planner is asked once per pass, unless what the first writes return changes the status: the allocator's
 * answer (a new address, a claim an older allocation refuses), the generation a spec change gives, or a write the
 * API server refuses. Those are answers to the plan, not reads — the allocator is the controller's own state and
 * runs only when the plan says so — so the pass goes plan → carry out → plan once more with the answers, over the
 * same snapshot. Folding the allocator into the snapshot instead would mean running it before the plan decides
 * whether to (a malformed status must reserve, never allocate), or planning with a guess of its answer.
 */
public final class ServiceReconciler {
    /** A write the API server refused is retried from 1 s, doubling, up to every 5 minutes (docs/phases-and-conditions.md). */
    static final Duration DENIED_RETRY_BASE = Duration.ofSeconds(1);
    static final Duration DENIED_RETRY_CAP = Duration.ofMinutes(5);

    private final ServiceSnapshots snapshots;
    private final ServiceApplier applier;
    /** Which Services are ours (--manage-unclassed), the decision the webhook shares. */
    private final ManagedServices managed;

    public ServiceReconciler(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, Clock clock, MalformedReports malformed, boolean arpWithoutAgents, ManagedServices managed) {
        ServiceMemory memory = new ServiceMemory(clock);
        this.managed = managed;
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
        ServiceSnapshot snapshot = snapshots.read(key, term);
        DesiredService plan = ServicePlanner.pass(snapshot);
        if (plan.lifecycle() != Lifecycle.RECONCILE) {
            applier.teardown(key, snapshot, plan, st);
            return Result.DONE;
        }
        ServiceLoadBalancer slb = applier.writeSlb(term, key, snapshot.slb(), plan.slb());
        AllocationState answer = applier.allocate(key, snapshot, slb, plan, st);
        snapshot = snapshot.answered(slb, answer);
        if (!plan.complete() || (answer != null && !answer.equals(plan.assumed()))) {
            plan = ServicePlanner.pass(snapshot);
            if (!plan.complete()) {
                // what the API server returned is not what was written: look again from a fresh read
                return Result.retry("shell-changed", DENIED_RETRY_BASE, DENIED_RETRY_CAP);
            }
        }
        applier.pending(key, plan.pending(), st);
        WriteDenial denial = applier.writeArp(term, key, snapshot.arp(), plan.arp());
        if (denial != null) {
            // a refused advertisement changes what the status must say
            plan = ServicePlanner.pass(snapshot.denied(denial));
        }
        boolean refused = applier.finish(key, snapshot, slb, plan, st);
        return denial == null && !refused ? Result.DONE
                : Result.retry("write-denied", DENIED_RETRY_BASE, DENIED_RETRY_CAP);
    }
}
