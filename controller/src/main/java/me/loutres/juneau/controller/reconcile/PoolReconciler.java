package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.ClusterRangeOverlaps;
import me.loutres.juneau.allocation.FamilyCounts;
import me.loutres.juneau.api.v1alpha1.FamilyCountsStatus;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.allocation.PoolConflicts;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.status.PoolConditions;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.controller.cache.ClusterCache;
import io.fabric8.kubernetes.api.model.Node;
import java.util.HashMap;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.selection.NodeEligibility;
import me.loutres.juneau.status.PoolOnLink;
import me.loutres.juneau.runtime.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an AddressPool's {@code status} counts and conditions ({@code Conflict}, {@code Overlap}: docs/allocation.md)
 * when they change, and hands freed capacity to waiting Services. An
 * entry that offers no address (admission refuses it; one stored around admission is read here through the shared
 * {@code AllocatorFeed}) is skipped, and said once per change of the pool: a Warning event on the AddressPool and
 * the {@code juneau_malformed_objects{kind="AddressPool"}} metric ({@link MalformedReports}). The pool's other
 * entries keep working.
 */
public final class PoolReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(PoolReconciler.class);

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final Requeue requeue;
    private final MalformedReports reports;

    private final Clock clock;

    public PoolReconciler(ClusterCache cache, KubeWriter writer, Requeue requeue, MalformedReports reports,
            Clock clock) {
        this.clock = clock;
        this.cache = cache;
        this.writer = writer;
        this.requeue = requeue;
        this.reports = reports;
    }

    public Result reconcile(String name, LeaderState st) {
        st.term().ensureActive();
        AddressPool pool = cache.pool(name);
        if (pool == null) {
            st.book().removePool(name);
            reports.forget(JuneauConstants.KIND_ADDRESS_POOL, name);
            return Result.DONE;
        }
        st.book().syncPool(pool);
        reportMalformedEntries(st, pool);
        st.book().syncNodes(cache.nodes());
        st.book().syncLearntRanges(cache.learntRanges());
        PoolUsage usage = st.book().usage(name);
        List<PoolConflicts.Conflict> conflicts = conflicts(name);
        reports.reportConflicts(st.term(), pool, JuneauConstants.KIND_ADDRESS_POOL,
                conflicts.stream().map(PoolConflicts.Conflict::message).toList());
        // ranges the cluster uses, learnt after the pool was stored: reserved by the allocator, said here
        List<ClusterRangeOverlaps.Overlap> overlaps = ClusterRangeOverlaps.of(pool, cache::learntRangesOverlapping);
        List<ClusterRangeOverlaps.KeptVip> kept = overlaps.isEmpty() ? List.of()
                : ClusterRangeOverlaps.kept(st.book().heldInReserved(name), overlaps);
        long reserved = overlaps.isEmpty() ? 0 : st.book().reservedCount(name);
        List<String> sentences = new ArrayList<>();
        overlaps.forEach(o -> sentences.add(o.sentence(name)));
        kept.forEach(k -> sentences.add(k.sentence(name)));
        reports.reportOverlaps(st.term(), pool, JuneauConstants.KIND_ADDRESS_POOL, sentences);
        AddressPoolStatus current = pool.getStatus();
        List<Condition> previous = current == null || current.getConditions() == null ? List.of()
                : current.getConditions().stream().filter(Objects::nonNull).toList();
        // a null entry (the shared reader refuses it; reported above) is not written back
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        List<Condition> conditions = PoolConditions.withOverlaps(PoolConditions.next(previous, conflicts, now), name,
                overlaps, reserved, kept, now);
        // per-family counts (docs/dual-stack.md): only for a pool holding IPv6 entries; no IPv6 VIP is held yet
        Map<IpFamily, FamilyCounts> families = FamilyCounts.forStatus(pool, usage, 0);
        FamilyCountsStatus ipv4 = block(families.get(IpFamily.IPV4));
        FamilyCountsStatus ipv6 = block(families.get(IpFamily.IPV6));
        // arp pools: on a subnet some node that may announce them has (docs/troubleshooting.md)
        Condition onLink = PoolOnLink.of(pool, eligibility(name), cache.nodeNetworks());
        conditions = PoolOnLink.with(conditions, onLink, now);
        reports.reportNotOnLink(st.term(), pool, JuneauConstants.KIND_ADDRESS_POOL, onLink != null
                && PoolOnLink.REASON_NOT_ON_NODE_SUBNET.equals(onLink.getReason())
                ? List.of("AddressPool " + name + ": " + onLink.getMessage()) : List.of());
        if (current == null || !Objects.equals(current.getTotal(), usage.total())
                || !Objects.equals(current.getAllocated(), usage.allocated())
                || !Objects.equals(current.getFree(), usage.free())
                || !Objects.equals(current.getIpv4(), ipv4) || !Objects.equals(current.getIpv6(), ipv6)
                || !PoolConditions.same(current.getConditions(), conditions)) {
            AddressPoolStatus next = new AddressPoolStatus(usage.total(), usage.allocated(), usage.free());
            next.setIpv4(ipv4);
            next.setIpv6(ipv6);
            next.setConditions(conditions);
            writer.updateStatus(st.term(), writer.kinds().pools(), WriteBodies.withStatus(pool, next));
            LOG.info("AddressPool {}: {}/{} addresses allocated, {} free{}", name, usage.allocated(), usage.total(),
                    usage.free(), reserved == 0 ? "" : ", " + reserved + " reserved (the cluster network uses them)");
        }
        if (usage.free() > 0) {
            CapacityWaker.wake(cache, st, requeue, name, OptionalLong.empty());
        }
        return Result.DONE;
    }

    private static FamilyCountsStatus block(FamilyCounts c) {
        return c == null ? null : new FamilyCountsStatus(c.total(), c.allocated(), c.free());
    }

    /**
     * Which nodes may announce the pool's VIPs: those its network's node selector picks, without the exclude label
     * (every node when no network lists it yet).
     */
    private NodeEligibility eligibility(String pool) {
        List<ExternalNetwork> listing = cache.networksListing(pool);
        Map<String, Map<String, String>> labels = new HashMap<>();
        for (Node n : cache.nodes()) {
            Map<String, String> l = n.getMetadata().getLabels();
            labels.put(n.getMetadata().getName(), l == null ? Map.of() : l);
        }
        if (listing.isEmpty()) {
            return NodeEligibility.of(null, null, labels);
        }
        ExternalNetwork net = listing.get(0);
        return NodeEligibility.of(net.getMetadata().getName(),
                net.getSpec() == null ? null : net.getSpec().getNodeSelector(), labels);
    }

    /**
     * Every conflict of the pool, from the objects of the cache: the pools it overlaps, the networks that share it.
     * Pools and networks are few; each pool reconcile looks at all of them.
     */
    private List<PoolConflicts.Conflict> conflicts(String name) {
        List<PoolConflicts.Conflict> all = new ArrayList<>(PoolConflicts.overlaps(cache.pools())
                .getOrDefault(name, List.of()));
        all.addAll(PoolConflicts.sharedPools(cache.networks(), new HashMap<>()).getOrDefault(name,
                List.of()));
        return all;
    }

    /**
     * The entries that offer no address (the shared feed), or else the shared reader's problem with the pool (a null
     * entry in its status, for instance), said once per change of the pool.
     */
    private void reportMalformedEntries(LeaderState st, AddressPool pool) {
        String name = pool.getMetadata().getName();
        List<String> problems = st.book().problems(name);
        if (problems.isEmpty()) {
            problems = cache.unreadable(pool).map(p -> List.of("AddressPool " + name + " cannot be read: " + p
                    + "; fix it (kubectl edit addresspool " + name + ")")).orElse(List.of());
        }
        reports.report(st.term(), pool, JuneauConstants.KIND_ADDRESS_POOL, problems);
    }
}
