package me.loutres.juneau.controller.reconcile;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.runtime.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes an AddressPool's {@code status} counts when they change, and hands freed capacity to waiting Services. */
public final class PoolReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(PoolReconciler.class);

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final Requeue requeue;

    public PoolReconciler(ClusterCache cache, KubeWriter writer, Requeue requeue) {
        this.cache = cache;
        this.writer = writer;
        this.requeue = requeue;
    }

    public Result reconcile(String name, LeaderState st) {
        st.term().ensureActive();
        AddressPool pool = cache.pool(name);
        if (pool == null) {
            st.book().removePool(name);
            return Result.DONE;
        }
        st.book().syncPool(pool);
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
}
