package me.loutres.juneau.controller.reconcile;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import java.util.Objects;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.runtime.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an AddressPool's {@code status} counts when they change, and hands freed capacity to waiting Services. An
 * entry that offers no address (admission refuses it; one stored around admission is read here through the shared
 * {@code AllocatorFeed}) is skipped, and said once per change of the pool: a Warning event on the AddressPool and
 * the {@code juneau_malformed_objects{kind="AddressPool"}} metric. The pool's other entries keep working.
 */
public final class PoolReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(PoolReconciler.class);

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final Requeue requeue;
    private final EventRecorder events;
    private final ControllerMetrics metrics;
    /** The problems last reported per pool (uid and entries), so an unchanged pool is not reported again. */
    private final Map<String, List<String>> reported = new ConcurrentHashMap<>();

    public PoolReconciler(ClusterCache cache, KubeWriter writer, Requeue requeue, EventRecorder events,
            ControllerMetrics metrics) {
        this.cache = cache;
        this.writer = writer;
        this.requeue = requeue;
        this.events = events;
        this.metrics = metrics;
    }

    public Result reconcile(String name, LeaderState st) {
        st.term().ensureActive();
        AddressPool pool = cache.pool(name);
        if (pool == null) {
            st.book().removePool(name);
            reported.remove(name);
            return Result.DONE;
        }
        st.book().syncPool(pool);
        reportMalformedEntries(st, pool);
        st.book().syncNodes(cache.nodes());
        PoolUsage usage = st.book().usage(name);
        AddressPoolStatus current = pool.getStatus();
        if (current == null || !Objects.equals(current.getTotal(), usage.total())
                || !Objects.equals(current.getAllocated(), usage.allocated())
                || !Objects.equals(current.getFree(), usage.free())) {
            AddressPoolStatus next = new AddressPoolStatus(usage.total(), usage.allocated(), usage.free());
            next.setConditions(current == null || current.getConditions() == null ? List.of() : current.getConditions());
            writer.replacePoolStatus(st.term(), pool, next);
            LOG.info("AddressPool {}: {}/{} addresses allocated, {} free", name, usage.allocated(), usage.total(),
                    usage.free());
        }
        if (usage.free() > 0) {
            CapacityWaker.wake(cache, st, requeue, name, OptionalLong.empty());
        }
        return Result.DONE;
    }

    private void reportMalformedEntries(LeaderState st, AddressPool pool) {
        String name = pool.getMetadata().getName();
        List<String> problems = st.book().problems(name);
        List<String> key = new java.util.ArrayList<>(problems);
        key.add(0, String.valueOf(pool.getMetadata().getUid()));
        if (problems.isEmpty()) {
            reported.remove(name);
            return;
        }
        if (key.equals(reported.put(name, key))) {
            return;
        }
        for (String problem : problems) {
            metrics.malformedObject("AddressPool");
            events.record(st.term(), pool, EventRecorder.WARNING, JuneauConstants.EVENT_MALFORMED_ENTRY, problem);
        }
    }
}
