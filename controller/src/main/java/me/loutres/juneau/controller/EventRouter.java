package me.loutres.juneau.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.cache.RecentWrites;
import me.loutres.juneau.controller.reconcile.Requeue;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.selection.NodeEligibility;
import me.loutres.juneau.view.NodeInternalIps;

/**
 * Informer handlers: they only turn a change into the keys it affects and queue them (no API calls, no
 * decisions). A pool or network change reaches exactly its Services through the indexes (pool → networks →
 * Services), never through a scan of every Service.
 */
final class EventRouter {
    private final ClusterCache cache;
    private final Requeue requeue;
    private final BooleanSupplier leading;
    private volatile long lastEventNanos = System.nanoTime();

    private final NodeLivenessWatch liveness;

    /** Which Services are ours (--manage-unclassed): the decision the reconciler and the webhook share. */
    private final ManagedServices managed;

    EventRouter(ClusterCache cache, Requeue requeue, BooleanSupplier leading, NodeLivenessWatch liveness,
            ManagedServices managed) {
        this.managed = managed;
        this.liveness = liveness;
        this.cache = cache;
        this.requeue = requeue;
        this.leading = leading;
    }

    void register() {
        cache.onServices(handler(cache.recentServices(), (o, n) -> {
            if (relevant(o) || relevant(n)) {
                requeue.service(ServiceKey.of(n));
            }
        }));
        cache.onEndpointSlices(handler(null, (o, n) -> {
            String svc = ClusterCache.label(n, JuneauConstants.SERVICE_NAME_LABEL);
            String oldSvc = o == null ? null : ClusterCache.label(o, JuneauConstants.SERVICE_NAME_LABEL);
            for (String name : oldSvc == null || oldSvc.equals(svc) ? new String[] {svc} : new String[] {svc, oldSvc}) {
                if (name != null) {
                    ServiceKey key = new ServiceKey(n.getMetadata().getNamespace(), name);
                    if (relevant(cache.service(key)) || cache.serviceLoadBalancer(key) != null) {
                        requeue.service(key);
                    }
                }
            }
        }));
        cache.onServiceLoadBalancers(handler(cache.recentServiceLoadBalancers(),
                (o, n) -> requeue.service(ServiceKey.of(n))));
        cache.onAddressPools(handler(cache.recentPools(), (o, n) -> {
            requeue.pool(n.getMetadata().getName());
            if (o == null || n == o || !Objects.equals(o.getSpec() == null ? null : o.getSpec().getAddresses(),
                    n.getSpec() == null ? null : n.getSpec().getAddresses())) {
                // the ranges changed: whether another pool overlaps this one may have too (pools are few)
                allPools();
                for (ExternalNetwork net : cache.networksListing(n.getMetadata().getName())) {
                    servicesOf(net.getMetadata().getName());
                }
            }
        }));
        cache.onExternalNetworks(handler(null, (o, n) -> {
            requeue.network(n.getMetadata().getName());
            if (o == null || n == o || !Objects.equals(o.getSpec() == null ? null : o.getSpec().getAddressPools(),
                    n.getSpec() == null ? null : n.getSpec().getAddressPools())) {
                // which pools are listed twice may have changed: every network and pool says it again if so
                cache.networks().forEach(net -> requeue.network(net.getMetadata().getName()));
                allPools();
            }
            servicesOf(n.getMetadata().getName());
            if (o != null && DefaultNetwork.isDefault(o) && !DefaultNetwork.isDefault(cache.network(o.getMetadata().getName()))) {
                // the mark was removed, or the default network deleted: its Services without annotation say so now
                unannotatedServices();
            }
        }));
        cache.onArpAdvertisements(handler(cache.recentArpAdvertisements(), (o, n) -> {
            String ns = ClusterCache.label(n, JuneauConstants.LABEL_SERVICE_NAMESPACE);
            String name = ClusterCache.label(n, JuneauConstants.LABEL_SERVICE_NAME);
            if (ns != null && name != null) {
                requeue.service(new ServiceKey(ns, name));
            }
        }));
        // a session that comes up or goes down changes condition Announced of the Services on its node
        cache.onBgpSessions(handler(null, (o, n) -> {
            // the agent rewrites routesAdvertised with every route: only what the plan reads re-queues, or each
            // new VIP on a node would re-plan every Service there
            if (o != null && o != n && sameForPlan(o, n)) {
                // the routes BIRD carries changed (a new VIP configured): only the Services whose VIP it
                // concerns are re-planned (condition Announced, docs/bgp.md "Status")
                List<String> was = carried(o);
                List<String> is = carried(n);
                String node = ClusterCache.sessionNode(n);
                if (!Objects.equals(was, is) && node != null) {
                    for (ServiceKey k : cache.servicesWithEndpointsOn(node)) {
                        var slb = cache.serviceLoadBalancer(k);
                        String vip = slb == null || slb.getStatus() == null ? null : slb.getStatus().getVip();
                        if (vip != null && carries(was, vip) != carries(is, vip)) {
                            requeue.service(k);
                        }
                    }
                }
                return;
            }
            String node = ClusterCache.sessionNode(n);
            String before = o == null ? null : ClusterCache.sessionNode(o);
            if (node != null) {
                cache.servicesWithEndpointsOn(node).forEach(requeue::service);
            }
            if (before != null && !before.equals(node)) {
                cache.servicesWithEndpointsOn(before).forEach(requeue::service);
            }
        }));
        // followed on every replica (a standby's view is current when it takes over); re-queues only when leading
        cache.onLeases(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease l) {
                onLease(l, null, l);
            }

            @Override
            public void onUpdate(Lease o, Lease n) {
                onLease(n, o, n);
            }

            @Override
            public void onDelete(Lease l, boolean unknown) {
                onLease(l, l, null);
            }
        });
        // a ServiceCIDR or a Node's podCIDR came or went: the pools sharing an address with it reserve or free those
        // addresses and say so (docs/allocation.md, "Pools overlapping the cluster's ranges"); told after the cache
        // holds the new ranges
        cache.onLearntRangesChanged(ranges -> {
            lastEventNanos = System.nanoTime();
            if (leading.getAsBoolean()) {
                poolsOverlapping(ranges);
            }
        });
        // who may use a network reads Namespace labels (docs/install.md, "Sharing a cluster between teams")
        cache.onNamespaces(handler(null, (o, n) -> {
            if (o != n) {
                namespaceLabelsChanged(o, n);
            }
        }));
        // a node's interfaces or prefixes changed (it joined, left, renumbered): condition OnLink of the arp pools
        // (docs/troubleshooting.md, "My pool is not on any node's subnet")
        cache.onNodeNetworks(handler(null, (o, n) -> {
            if (o == null || o == n || !java.util.Objects.equals(o.getStatus(), n.getStatus())) {
                for (AddressPool p : cache.pools()) {
                    if (p.getSpec() != null && JuneauConstants.MODE_ARP.equals(p.getSpec().getAdvertiseMode())) {
                        requeue.pool(p.getMetadata().getName());
                    }
                }
            }
        }));
        cache.onNodes(handler(null, (o, n) -> {
            if (o == null || o == n) {
                // a Node that appears or goes changes who may answer ARP for the Services with endpoints on it
                cache.servicesWithEndpointsOn(n.getMetadata().getName()).forEach(requeue::service);
            } else {
                labelsChanged(o, n);
            }
            if (o == null || o == n || !internalIps(o).equals(internalIps(n))
                    || !java.util.Objects.equals(o.getMetadata().getLabels(), n.getMetadata().getLabels())) {
                // node addresses are never handed out from arp pools: their counts change
                for (AddressPool p : cache.pools()) {
                    if (p.getSpec() != null && JuneauConstants.MODE_ARP.equals(p.getSpec().getAdvertiseMode())) {
                        requeue.pool(p.getMetadata().getName());
                    }
                }
            }
        }));
    }

    /**
     * A Namespace's labels changed (or it appeared after its Services, in a cache that lagged): only its own Services
     * can be affected (the index by namespace), and of those only the ones whose network's namespace selectors test a
     * changed label (the index label key → networks), or that use the default network (re-queued rather than
     * guessed). A Namespace that goes takes its Services with it.
     */
    private void namespaceLabelsChanged(Namespace o, Namespace n) {
        Set<String> changed = NodeLabelChange.changedKeys(o == null ? null : o.getMetadata().getLabels(),
                n.getMetadata().getLabels());
        Set<String> networks = new java.util.HashSet<>();
        for (String key : changed) {
            cache.networksSelectingNamespacesOn(key).forEach(net -> networks.add(net.getMetadata().getName()));
        }
        if (networks.isEmpty()) {
            return;
        }
        for (Service svc : cache.servicesIn(n.getMetadata().getName())) {
            String net = ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
            if ((isBlank(net) || networks.contains(net.trim())) && relevant(svc)) {
                requeue.service(ServiceKey.of(svc));
            }
        }
    }

    /** The pools with a usable address in one of the ranges (pools are few; their entries parse quickly). */
    private void poolsOverlapping(List<me.loutres.juneau.ip.AddressRange> ranges) {
        for (AddressPool p : cache.pools()) {
            boolean hit = me.loutres.juneau.allocation.AllocatorFeed.pool(p).entries().stream()
                    .anyMatch(e -> ranges.stream().anyMatch(r -> e.usable().overlaps(r)));
            if (hit) {
                requeue.pool(p.getMetadata().getName());
            }
        }
    }

    private void allPools() {
        cache.pools().forEach(p -> requeue.pool(p.getMetadata().getName()));
    }

    /**
     * A Node's labels changed: only Services with an endpoint on that node can be affected, and of those only the
     * ones whose network's nodeSelector tests a changed label (the index label key → networks), or all of them when
     * the exclusion label changed (it applies to every network).
     */
    private void labelsChanged(Node o, Node n) {
        Set<String> changed = NodeLabelChange.changedKeys(o.getMetadata().getLabels(), n.getMetadata().getLabels());
        if (changed.isEmpty()) {
            return;
        }
        List<ServiceKey> onNode = cache.servicesWithEndpointsOn(n.getMetadata().getName());
        if (onNode.isEmpty()) {
            return;
        }
        if (changed.contains(NodeEligibility.EXCLUDE_LABEL)) {
            onNode.forEach(requeue::service);
            return;
        }
        Set<String> networks = new java.util.HashSet<>();
        for (String key : changed) {
            cache.networksSelectingOn(key).forEach(net -> networks.add(net.getMetadata().getName()));
        }
        if (networks.isEmpty()) {
            return;
        }
        for (ServiceKey k : onNode) {
            Service svc = cache.service(k);
            String net = svc == null ? null : ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
            // a Service without the annotation uses the default network: re-queue it rather than guess
            if (net == null || networks.contains(net.trim())) {
                requeue.service(k);
            }
        }
    }

    private void onLease(Lease l, Lease before, Lease now) {
        String node = NodeLiveness.nodeOf(l);
        if (node != null) {
            liveness.observed(node, now);
            if (leading.getAsBoolean() && !Objects.equals(refusals(before), refusals(now))) {
                // the agent's refused writes changed: condition Announced of the node's Services says them
                cache.servicesWithEndpointsOn(node).forEach(requeue::service);
            }
        }
    }

    private static String refusals(Lease l) {
        return l == null || l.getMetadata() == null || l.getMetadata().getAnnotations() == null ? null
                : l.getMetadata().getAnnotations().get(me.loutres.juneau.plan.RefusedWrites.ANNOTATION);
    }

    /** Peer, node, state, error and withheld networks: what condition Announced reads of a BGPSession. */
    private static boolean sameForPlan(BGPSession a, BGPSession b) {
        return Objects.equals(ClusterCache.sessionNode(a), ClusterCache.sessionNode(b))
                && Objects.equals(a.getSpec() == null ? null : a.getSpec().getPeer(),
                        b.getSpec() == null ? null : b.getSpec().getPeer())
                && Objects.equals(a.getStatus() == null ? null : a.getStatus().getState(),
                        b.getStatus() == null ? null : b.getStatus().getState())
                && Objects.equals(a.getStatus() == null ? null : a.getStatus().getLastError(),
                        b.getStatus() == null ? null : b.getStatus().getLastError())
                && Objects.equals(a.getStatus() == null ? null : a.getStatus().getWithheldNetworks(),
                        b.getStatus() == null ? null : b.getStatus().getWithheldNetworks());
    }

    private static List<String> carried(BGPSession s) {
        return s.getStatus() == null ? null : s.getStatus().getCarriedAddresses();
    }

    /** As {@link me.loutres.juneau.plan.AnnounceFacts.SessionReport#carriesAddress}: unreported covers all. */
    private static boolean carries(List<String> carried, String vip) {
        return carried == null || me.loutres.juneau.bgp.CarriedAddresses.covers(carried, vip);
    }

    /** When an informer last delivered anything (to let watches drain before they close). */
    long lastEventNanos() {
        return lastEventNanos;
    }

    private boolean relevant(Service s) {
        return s != null && (managed.manages(s) || cache.serviceLoadBalancer(ServiceKey.of(s)) != null);
    }

    /**
     * Every managed Service without the network annotation: a scan, but only when the default network, one of its
     * pools or the mark changes, which is rare.
     */
    private void unannotatedServices() {
        cache.services().stream()
                .filter(s -> s.getMetadata() != null && isBlank(ClusterCache.annotation(s,
                        JuneauConstants.ANNOTATION_EXTERNAL_NETWORK)))
                .filter(this::relevant).forEach(s -> requeue.service(ServiceKey.of(s)));
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private void servicesOf(String network) {
        cache.servicesOfNetwork(network).stream()
                .sorted(java.util.Comparator.comparing((Service s) -> String.valueOf(s.getMetadata().getCreationTimestamp()))
                        .thenComparing(ServiceKey::of))
                .filter(this::relevant).forEach(s -> requeue.service(ServiceKey.of(s)));
        if (DefaultNetwork.isDefault(cache.network(network))) {
            // the default network also serves the Services that name none (the index holds only annotations)
            unannotatedServices();
        }
    }

    /** The addresses the allocator keeps out of arp pools (the shared reader: IPv4 InternalIPs, trimmed). */
    private static java.util.Set<Long> internalIps(Node n) {
        return NodeInternalIps.addresses(List.of(n));
    }

    /**
     * A handler calling {@code route(old, new)}: {@code old} is null on add; on delete both are the deleted
     * object. Every delivered version also clears the matching entry of what the controller wrote itself, and one
     * that is only the echo of such a write is not routed.
     */
    private <T extends HasMetadata> ResourceEventHandler<T> handler(RecentWrites<T> recent, BiConsumer<T, T> route) {
        // an event that only echoes the controller's own write routes nothing: the pass that wrote it already
        // planned with it (each new Service's ServiceLoadBalancer create, its status and the Service's ingress came
        // back as passes that wrote nothing). One that comes while a write of its key is on its way waits for it
        BiConsumer<T, T> deliver = (o, n) -> {
            lastEventNanos = System.nanoTime();
            Runnable routed = () -> {
                if (leading.getAsBoolean()) {
                    route.accept(o, n);
                }
            };
            if (recent == null) {
                routed.run();
            } else {
                recent.delivered(key(n), n, routed);
            }
        };
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                deliver.accept(null, obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                deliver.accept(oldObj, newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                lastEventNanos = System.nanoTime();
                if (recent != null) {
                    recent.forget(key(obj));
                }
                if (leading.getAsBoolean()) {
                    route.accept(obj, obj);
                }
            }
        };
    }

    private static String key(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null ? o.getMetadata().getName() : ns + "/" + o.getMetadata().getName();
    }
}
