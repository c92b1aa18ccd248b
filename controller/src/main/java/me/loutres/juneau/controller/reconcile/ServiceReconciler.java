package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.allocation.AllocationConflict;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.api.v1alpha1.ServiceRef;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.status.AllocationState;
import me.loutres.juneau.status.BackendState;
import me.loutres.juneau.status.Backends;
import me.loutres.juneau.status.StatusCalculator;
import me.loutres.juneau.status.StatusInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Service key (SPEC §3.1–§3.5): its ServiceLoadBalancer, the VIP, backends, the ARP election, the
 * status, the Service's ingress and the Events. Reads come from the informer caches; every write goes through
 * {@link KubeWriter}; nothing is written that has not changed.
 */
public final class ServiceReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceReconciler.class);
    static final String IP_MODE_VIP = "VIP";

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final EventRecorder events;
    private final ArpAdvertiser arp;
    private final ControllerMetrics metrics;
    private final Requeue requeue;
    private final Clock clock;
    /** The last warning raised per Service and kind, so an unchanged problem is not reported again. */
    private final Map<ServiceKey, Map<String, String>> warned = new ConcurrentHashMap<>();

    public ServiceReconciler(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, Clock clock) {
        this.cache = cache;
        this.writer = writer;
        this.events = events;
        this.arp = new ArpAdvertiser(writer);
        this.metrics = metrics;
        this.requeue = requeue;
        this.clock = clock;
    }

    public static boolean isManaged(Service svc) {
        return svc != null && svc.getSpec() != null
                && JuneauConstants.isManaged(svc.getSpec().getType(), svc.getSpec().getLoadBalancerClass());
    }

    public Result reconcile(ServiceKey key, LeaderState st) {
        Term term = st.term();
        term.ensureActive();
        String k = key.toString();
        Service svc = writer.services.read(k, cache.service(key));
        ServiceLoadBalancer slb = writer.slbs.read(k, cache.serviceLoadBalancer(key));

        if (slb != null && slb.getMetadata().getDeletionTimestamp() != null) {
            return finalizeDeletion(key, slb, svc, st);
        }
        boolean wanted = isManaged(svc) && svc.getMetadata().getDeletionTimestamp() == null;
        if (!wanted) {
            return forget(key, slb, st);
        }
        if (slb != null && !ownedBy(slb, svc)) {
            // left by an earlier Service of the same name: its finalizer path releases its address first
            LOG.info("{}: deleting ServiceLoadBalancer of a previous Service with this name (uid {})", key,
                    controllerUid(slb));
            writer.deleteServiceLoadBalancer(term, slb);
            return Result.DONE;
        }
        slb = ensureServiceLoadBalancer(key, svc, slb, term);

        String network = slb.getSpec().getExternalNetwork();
        NetworkResolution resolution = NetworkResolver.resolve(network, cache.network(network), cache::pool);
        if (resolution instanceof NetworkResolution.Usable u) {
            u.pools().forEach(st.book()::syncPool);
        }
        ServiceLoadBalancerStatus previous = slb.getStatus();
        AllocationState allocation = allocate(key, svc, slb, resolution, st);
        String type = networkType(resolution, allocation);

        List<EndpointSlice> slices = cache.endpointSlicesOf(key);
        BackendState backends = Backends.aggregate(svc, slices);
        warnUnresolvedPorts(term, key, svc, backends, slices);

        String announcing = null;
        String conflict = null;
        String arpName = JuneauConstants.arpAdvertisementName(key.namespace(), key.name());
        ARPAdvertisement existing = writer.arps.read(arpName, cache.arpAdvertisement(arpName));
        boolean ours = existing == null || ArpAdvertiser.belongsTo(existing, key);
        if (allocation instanceof AllocationState.Allocated a && JuneauConstants.MODE_ARP.equals(type)) {
            if (ours) {
                // an ARPAdvertisement may only name an existing Node (SPEC §2.3): an endpoint's nodeName is not
                // a promise that the Node object is there
                List<String> candidates = backends.advertisingNodes().stream().filter(cache::nodeExists).toList();
                announcing = arp.ensure(term, key, existing, network, a.vip(), candidates);
            } else {
                conflict = "ARPAdvertisement \"" + arpName + "\" already exists for " + ArpAdvertiser.ownerOf(existing)
                        + ", so no node announces VIP " + a.vip() + "; rename this Service or the other one (the"
                        + " advertisement name is slb-<namespace>-<name>)";
                warnOnce(term, key, svc, "arp-conflict", conflict);
            }
        } else if (existing != null && ours && (type != null || !(allocation instanceof AllocationState.Allocated))) {
            // bgp network, or nothing to announce: a left-over advertisement must not keep a node answering
            arp.remove(term, existing);
        } else if (existing != null && ours) {
            // the network cannot be read right now but the VIP stays: leave the node that answers as it is
            announcing = existing.getSpec() == null ? null : existing.getSpec().getNodeName();
        }
        if (conflict == null) {
            clearWarning(key, "arp-conflict");
        }

        long generation = slb.getMetadata().getGeneration() == null ? 0 : slb.getMetadata().getGeneration();
        ServiceLoadBalancerStatus next = StatusCalculator.next(previous,
                new StatusInput(generation, allocation, backends, type, announcing), now());
        if (conflict != null) {
            next = withAvailableProblem(next, conflict);
        }
        if (!next.equals(previous)) {
            slb = writer.replaceServiceLoadBalancerStatus(term, slb, next);
            logChange(key, previous, next);
            recordTransitions(term, svc, network, previous, next);
        }
        ensureIngress(term, svc, next.getVip());
        return Result.DONE;
    }

    /** The Service is gone or no longer ours: its ServiceLoadBalancer goes (the finalizer path releases). */
    private Result forget(ServiceKey key, ServiceLoadBalancer slb, LeaderState st) {
        st.pending().remove(key);
        warned.remove(key);
        if (slb != null) {
            LOG.info("{}: Service is gone or no longer managed; deleting its ServiceLoadBalancer", key);
            writer.deleteServiceLoadBalancer(st.term(), slb);
            return Result.DONE;
        }
        // nothing persisted names an address for this key: drop one reserved for it but never recorded
        st.book().release(key.toString()).ifPresent(r -> released(r, st));
        return Result.DONE;
    }

    /** SPEC §3.5: advertisement deleted, address released, Service ingress cleared, finalizer removed. */
    private Result finalizeDeletion(ServiceKey key, ServiceLoadBalancer slb, Service svc, LeaderState st) {
        Term term = st.term();
        if (slb.getMetadata().getFinalizers() == null
                || !slb.getMetadata().getFinalizers().contains(JuneauConstants.FINALIZER)) {
            return Result.DONE;
        }
        String arpName = JuneauConstants.arpAdvertisementName(key.namespace(), key.name());
        ARPAdvertisement existing = writer.arps.read(arpName, cache.arpAdvertisement(arpName));
        if (existing != null && ArpAdvertiser.belongsTo(existing, key)) {
            arp.remove(term, existing);
        }
        Optional<AllocationRecord> released = st.book().release(key.toString());
        released.ifPresent(r -> released(r, st));
        if (svc != null && hasIngress(svc)) {
            writer.replaceServiceIngress(term, svc, List.of());
        }
        ServiceLoadBalancer copy = copyOf(slb);
        List<String> finalizers = new ArrayList<>(copy.getMetadata().getFinalizers());
        finalizers.remove(JuneauConstants.FINALIZER);
        copy.getMetadata().setFinalizers(finalizers);
        writer.updateServiceLoadBalancer(term, copy);
        st.pending().remove(key);
        warned.remove(key);
        LOG.info("{}: ServiceLoadBalancer deleted{}", key,
                released.map(r -> ", released " + Ipv4.format(r.address()) + " to AddressPool " + r.pool()).orElse(""));
        return Result.DONE;
    }

    private void released(AllocationRecord r, LeaderState st) {
        if (r.pool() != null) {
            requeue.pool(r.pool());
            CapacityWaker.wake(cache, st, requeue, r.pool(), OptionalLong.of(r.address()));
        }
    }

    private ServiceLoadBalancer ensureServiceLoadBalancer(ServiceKey key, Service svc, ServiceLoadBalancer slb,
            Term term) {
        ServiceLoadBalancerSpec spec = desiredSpec(svc);
        OwnerReference owner = new OwnerReferenceBuilder().withApiVersion("v1").withKind("Service")
                .withName(svc.getMetadata().getName()).withUid(svc.getMetadata().getUid()).withController(true)
                .build();
        if (slb == null) {
            ServiceLoadBalancer created = new ServiceLoadBalancer();
            created.setMetadata(new ObjectMetaBuilder().withName(key.name()).withNamespace(key.namespace())
                    .withOwnerReferences(owner).withFinalizers(JuneauConstants.FINALIZER).build());
            created.setSpec(spec);
            created = writer.createServiceLoadBalancer(term, created);
            LOG.info("{}: created ServiceLoadBalancer (ExternalNetwork {}{})", key, spec.getExternalNetwork(),
                    spec.getRequestedIP() == null ? "" : ", requested IP " + spec.getRequestedIP());
            return created;
        }
        boolean hasFinalizer = slb.getMetadata().getFinalizers() != null
                && slb.getMetadata().getFinalizers().contains(JuneauConstants.FINALIZER);
        boolean hasOwner = controllerUid(slb) != null;
        if (spec.equals(slb.getSpec()) && hasFinalizer && hasOwner) {
            return slb;
        }
        ServiceLoadBalancer copy = copyOf(slb);
        copy.setSpec(spec);
        if (!hasFinalizer) {
            List<String> f = copy.getMetadata().getFinalizers() == null ? new ArrayList<>()
                    : new ArrayList<>(copy.getMetadata().getFinalizers());
            f.add(JuneauConstants.FINALIZER);
            copy.getMetadata().setFinalizers(f);
        }
        if (!hasOwner) {
            List<OwnerReference> refs = copy.getMetadata().getOwnerReferences() == null ? new ArrayList<>()
                    : new ArrayList<>(copy.getMetadata().getOwnerReferences());
            refs.add(owner);
            copy.getMetadata().setOwnerReferences(refs);
        }
        ServiceLoadBalancer updated = writer.updateServiceLoadBalancer(term, copy);
        LOG.info("{}: updated ServiceLoadBalancer spec (ExternalNetwork {}{})", key, spec.getExternalNetwork(),
                spec.getRequestedIP() == null ? "" : ", requested IP " + spec.getRequestedIP());
        return updated;
    }

    static ServiceLoadBalancerSpec desiredSpec(Service svc) {
        ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
        spec.setServiceRef(new ServiceRef(svc.getMetadata().getName()));
        spec.setExternalNetwork(trimmed(ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK)));
        spec.setRequestedIP(trimmed(ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_REQUESTED_IP)));
        return spec;
    }

    private AllocationState allocate(ServiceKey key, Service svc, ServiceLoadBalancer slb,
            NetworkResolution resolution, LeaderState st) {
        ServiceLoadBalancerStatus previous = slb.getStatus();
        String owner = key.toString();
        if (previous != null && previous.getVip() != null) {
            // the record of truth: a set VIP never changes, whatever happens to the network later
            String vip = previous.getVip();
            try {
                Optional<AllocationConflict> c = st.book().claim(
                        new AllocationRecord(owner, previous.getAddressPool(), Ipv4.parse(vip)));
                c.ifPresent(conflict -> LOG.error("{}: status records VIP {} but {}", key, vip, conflict));
            } catch (InvalidAddressException e) {
                LOG.error("{}: status.vip \"{}\" is not an IPv4 address; leaving it untouched", key, vip);
            }
            st.pending().remove(key);
            return new AllocationState.Allocated(vip, previous.getAddressPool());
        }
        if (resolution instanceof NetworkResolution.Unavailable un) {
            st.pending().remove(key);
            return AllocationState.of(un);
        }
        NetworkResolution.Usable usable = (NetworkResolution.Usable) resolution;
        String requestedText = slb.getSpec().getRequestedIP();
        OptionalLong requested = OptionalLong.empty();
        if (requestedText != null) {
            try {
                requested = OptionalLong.of(Ipv4.parse(requestedText));
            } catch (InvalidAddressException e) {
                st.pending().remove(key);
                return new AllocationState.Failed(JuneauConstants.REASON_INVALID_CONFIG, "annotation "
                        + JuneauConstants.ANNOTATION_REQUESTED_IP + " is \"" + requestedText
                        + "\", which is not an IPv4 address; set it to one address inside the AddressPools of"
                        + " ExternalNetwork \"" + usable.networkName() + "\", or remove it");
            }
        }
        st.book().syncNodes(cache.nodes());
        AllocationResult result = st.book().allocate(owner, usable.poolNames(), requested);
        AllocationState state = AllocationState.of(result, usable.networkName());
        if (result instanceof AllocationResult.Allocated a) {
            st.pending().remove(key);
            requeue.pool(a.pool());
        } else if (state instanceof AllocationState.Pending) {
            st.pending().put(new PendingServices.Waiting(key, createdAt(svc), usable.networkName(), requested));
        } else {
            st.pending().remove(key);
        }
        return state;
    }

    /** bgp or arp; when the network cannot be read, the mode of the pool the VIP came from. */
    private String networkType(NetworkResolution resolution, AllocationState allocation) {
        if (resolution instanceof NetworkResolution.Usable u) {
            return u.type();
        }
        if (allocation instanceof AllocationState.Allocated a) {
            AddressPool pool = cache.pool(a.pool());
            return pool == null || pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
        }
        return null;
    }

    private void warnUnresolvedPorts(Term term, ServiceKey key, Service svc, BackendState backends,
            List<EndpointSlice> slices) {
        // without endpoint ports there is nothing to resolve against yet (no pods): not a mistake to warn about
        boolean slicesHavePorts = slices.stream().anyMatch(s -> s.getPorts() != null && !s.getPorts().isEmpty());
        if (backends.unresolvedPorts().isEmpty() || !slicesHavePorts) {
            clearWarning(key, "ports");
            return;
        }
        String message = "named targetPort of Service port(s) " + String.join(", ", backends.unresolvedPorts())
                + " is not found in the ports of the Service's EndpointSlices, so "
                + (backends.unresolvedPorts().size() == 1 ? "it is" : "they are")
                + " left out of status.ports; name the container port like the targetPort, or use a number";
        warnOnce(term, key, svc, "ports", message);
    }

    private void warnOnce(Term term, ServiceKey key, Service svc, String kind, String message) {
        Map<String, String> mine = warned.computeIfAbsent(key, x -> new ConcurrentHashMap<>());
        if (message.equals(mine.get(kind))) {
            return;
        }
        mine.put(kind, message);
        String reason = "ports".equals(kind) ? JuneauConstants.EVENT_TARGET_PORT_NOT_FOUND
                : JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT;
        LOG.warn("{}: {}", key, message);
        events.record(term, svc, EventRecorder.WARNING, reason, message);
    }

    private void clearWarning(ServiceKey key, String kind) {
        Map<String, String> mine = warned.get(key);
        if (mine != null) {
            mine.remove(kind);
        }
    }

    /** The Available condition says why nobody announces (a name conflict), instead of blaming the backends. */
    private static ServiceLoadBalancerStatus withAvailableProblem(ServiceLoadBalancerStatus next, String message) {
        for (Condition c : next.getConditions()) {
            if (JuneauConstants.CONDITION_AVAILABLE.equals(c.getType())) {
                c.setReason(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT);
                c.setMessage(message);
            }
        }
        return next;
    }

    private void recordTransitions(Term term, Service svc, String network, ServiceLoadBalancerStatus prev,
            ServiceLoadBalancerStatus next) {
        String prevVip = prev == null ? null : prev.getVip();
        if (prevVip == null && next.getVip() != null) {
            metrics.allocated();
            // the first node to answer ARP is part of this news, not a change of node: one event, not two
            events.record(term, svc, EventRecorder.NORMAL, JuneauConstants.EVENT_IP_ALLOCATED, "allocated VIP "
                    + next.getVip() + " from AddressPool " + next.getAddressPool() + " of ExternalNetwork \""
                    + network + "\"" + (next.getArpAnnouncingNode() == null ? ""
                            : "; node " + next.getArpAnnouncingNode() + " answers ARP for it"));
        }
        Condition allocated = condition(next, JuneauConstants.CONDITION_ALLOCATED);
        Condition before = condition(prev, JuneauConstants.CONDITION_ALLOCATED);
        if (allocated != null && "False".equals(allocated.getStatus()) && (before == null
                || !Objects.equals(before.getStatus(), allocated.getStatus())
                || !Objects.equals(before.getReason(), allocated.getReason())
                || !Objects.equals(before.getMessage(), allocated.getMessage()))) {
            metrics.allocationFailed(allocated.getReason());
            events.record(term, svc, EventRecorder.WARNING, JuneauConstants.EVENT_ALLOCATION_FAILED,
                    allocated.getReason() + ": " + allocated.getMessage());
        }
        String prevNode = prev == null ? null : prev.getArpAnnouncingNode();
        if (!Objects.equals(prevNode, next.getArpAnnouncingNode())) {
            metrics.arpNodeChanged();
        }
        if (prevVip != null && !Objects.equals(prevNode, next.getArpAnnouncingNode())) {
            events.record(term, svc, EventRecorder.NORMAL, JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED,
                    "node answering ARP for VIP " + (next.getVip() != null ? next.getVip() : prevVip) + " changed: "
                            + (prevNode == null ? "<none>" : prevNode) + " -> "
                            + (next.getArpAnnouncingNode() == null ? "<none>" : next.getArpAnnouncingNode()));
        }
    }

    private static void logChange(ServiceKey key, ServiceLoadBalancerStatus prev, ServiceLoadBalancerStatus next) {
        String prevPhase = prev == null ? null : prev.getPhase();
        String prevNode = prev == null ? null : prev.getArpAnnouncingNode();
        String prevVip = prev == null ? null : prev.getVip();
        if (Objects.equals(prevPhase, next.getPhase()) && Objects.equals(prevNode, next.getArpAnnouncingNode())
                && Objects.equals(prevVip, next.getVip())) {
            return;
        }
        Condition why = condition(next, JuneauConstants.PHASE_PENDING.equals(next.getPhase())
                || JuneauConstants.PHASE_ERROR.equals(next.getPhase()) ? JuneauConstants.CONDITION_ALLOCATED
                : JuneauConstants.CONDITION_AVAILABLE);
        LOG.info("{}: {} -> {} vip={} nodes={} arpNode={}{}", key, prevPhase == null ? "new" : prevPhase,
                next.getPhase(), next.getVip(), next.getAdvertisingNodes().size(), next.getArpAnnouncingNode(),
                why == null ? "" : " (" + why.getReason() + ")");
    }

    private void ensureIngress(Term term, Service svc, String vip) {
        List<LoadBalancerIngress> desired = vip == null ? List.of()
                : List.of(new LoadBalancerIngressBuilder().withIp(vip).withIpMode(IP_MODE_VIP).build());
        if (!sameIngress(currentIngress(svc), desired)) {
            writer.replaceServiceIngress(term, svc, desired);
        }
    }

    private static List<LoadBalancerIngress> currentIngress(Service svc) {
        if (svc.getStatus() == null || svc.getStatus().getLoadBalancer() == null
                || svc.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return svc.getStatus().getLoadBalancer().getIngress();
    }

    static boolean hasIngress(Service svc) {
        return !currentIngress(svc).isEmpty();
    }

    private static boolean sameIngress(List<LoadBalancerIngress> a, List<LoadBalancerIngress> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            LoadBalancerIngress x = a.get(i);
            LoadBalancerIngress y = b.get(i);
            if (!Objects.equals(x.getIp(), y.getIp()) || !Objects.equals(x.getIpMode(), y.getIpMode())
                    || !Objects.equals(x.getHostname(), y.getHostname())) {
                return false;
            }
        }
        return true;
    }

    static Condition condition(ServiceLoadBalancerStatus s, String type) {
        if (s == null || s.getConditions() == null) {
            return null;
        }
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static boolean ownedBy(ServiceLoadBalancer slb, Service svc) {
        String uid = controllerUid(slb);
        return uid == null || uid.equals(svc.getMetadata().getUid());
    }

    static String controllerUid(ServiceLoadBalancer slb) {
        if (slb.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        return slb.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()) && "Service".equals(r.getKind()))
                .map(OwnerReference::getUid).findFirst().orElse(null);
    }

    private static String createdAt(Service svc) {
        String t = svc.getMetadata().getCreationTimestamp();
        return t == null ? "" : t;
    }

    private static String trimmed(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }

    private static ServiceLoadBalancer copyOf(ServiceLoadBalancer slb) {
        return KubeWriter.copy(slb, ServiceLoadBalancer.class);
    }

    private String now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
