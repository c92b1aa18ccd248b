package me.loutres.juneau.controller.reconcile;

import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.controller.cache.ClusterCache;

/**
 * When addresses free up in a pool, the Services waiting for one get them oldest first. The address is reserved
 * in the allocator right here, in age order, and the Service is queued; its reconcile finds the reservation
 * (allocation is idempotent per owner) and records it. Reserving here, rather than merely queueing everyone,
 * keeps the order even with several workers racing for the same address.
 */
final class CapacityWaker {
    private CapacityWaker() {
    }

    /**
     * @param freed the one address released, or empty when the pool grew or a node address left it
     */
    static void wake(ClusterCache cache, LeaderState st, Requeue requeue, String pool, OptionalLong freed) {
        if (st.pending().size() == 0) {
            return;
        }
        Set<String> networks = cache.networksListing(pool).stream().map(n -> n.getMetadata().getName())
                .collect(Collectors.toSet());
        if (networks.isEmpty()) {
            return;
        }
        boolean capacityLeft = true;
        for (PendingServices.Waiting w : st.pending().oldestFirst(w -> networks.contains(w.network()))) {
            if (w.requested().isPresent()) {
                if (freed.isPresent() && freed.getAsLong() != w.requested().getAsLong()) {
                    continue;
                }
            } else if (!capacityLeft) {
                continue;
            }
            NetworkResolution r = NetworkResolver.resolve(w.network(), cache.network(w.network()), cache::pool,
                    cache::unreadable);
            if (!(r instanceof NetworkResolution.Usable u)) {
                continue;
            }
            AllocationResult result = st.book().allocate(w.key().toString(), u.poolNames(), w.requested());
            if (result instanceof AllocationResult.Allocated) {
                requeue.service(w.key());
            } else if (w.requested().isEmpty()) {
                capacityLeft = false;
            }
        }
    }
}
