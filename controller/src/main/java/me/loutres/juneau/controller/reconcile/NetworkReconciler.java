package me.loutres.juneau.controller.reconcile;

import java.util.List;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.allocation.PoolConflicts;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.runtime.Result;

/**
 * Reports an ExternalNetwork that admission would have denied (stored around the webhook: a null, empty or repeated
 * {@code spec.addressPools} entry, a {@code spec.type} that is not bgp or arp, an object the shared reader refuses),
 * once per change, on the ExternalNetwork itself. Its Services say the same through the shared
 * {@link NetworkResolver} (phase Error, reason ExternalNetworkUnavailable, naming the entry); nothing is written to
 * the network.
 */
public final class NetworkReconciler {
    private final ClusterCache cache;
    private final MalformedReports reports;

    public NetworkReconciler(ClusterCache cache, MalformedReports reports) {
        this.cache = cache;
        this.reports = reports;
    }

    public Result reconcile(String name, LeaderState st) {
        st.term().ensureActive();
        ExternalNetwork network = cache.network(name);
        if (network == null) {
            reports.forget(JuneauConstants.KIND_EXTERNAL_NETWORK, name);
            return Result.DONE;
        }
        List<String> problems = NetworkResolver.malformed(name, network, cache.unreadable(network));
        reports.report(st.term(), network, JuneauConstants.KIND_EXTERNAL_NETWORK, problems);
        // ExternalNetworks have no status: a pool it shares with another network is said as Warning events on it
        // (and as condition Conflict on the pool)
        java.util.Map<String, List<PoolConflicts.Conflict>> onNetworks = new java.util.HashMap<>();
        PoolConflicts.sharedPools(cache.networks(), onNetworks);
        reports.reportConflicts(st.term(), network, JuneauConstants.KIND_EXTERNAL_NETWORK,
                onNetworks.getOrDefault(name, List.of()).stream().map(PoolConflicts.Conflict::message).toList());
        return Result.DONE;
    }
}
