package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.NetworkResolver;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.ip.Ipv4;
import io.fabric8.kubernetes.api.model.LabelSelector;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import me.loutres.juneau.plan.AllocationNeed;
import me.loutres.juneau.plan.AnnounceFacts;
import me.loutres.juneau.selection.NodeEligibility;
import me.loutres.juneau.plan.ArpAction;
import me.loutres.juneau.plan.PlanInput;
import me.loutres.juneau.plan.PlannedEvent;
import me.loutres.juneau.plan.ServicePlan;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.runtime.Result;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.status.AllocationState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Service key: reads what the plan needs from the cache (which shows the controller's own recent
 * writes), runs the allocator where {@link ServicePlanner#need} says so, and applies what {@link ServicePlanner}
 * decides through {@link KubeWriter}. No decision is taken here.
 */
public final class ServiceReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceReconciler.class);
    /** A write the API server refused is retried from 1 s, doubling, up to every 5 minutes (docs/phases-and-conditions.md). */
    static final Duration DENIED_RETRY_BASE = Duration.ofSeconds(1);
    static final Duration DENIED_RETRY_CAP = Duration.ofMinutes(5);

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final EventRecorder events;
    private final ControllerMetrics metrics;
    private final Requeue requeue;
    private final Clock clock;
    private final MalformedReports malformed;
    /** Services looked at for {@link #announceAgainAfterTakeover} in the current term. */
    private final Set<ServiceKey> announced = ConcurrentHashMap.newKeySet();
    private volatile long announcedTerm = -1;
    private volatile java.time.Instant termStartedAt = java.time.Instant.EPOCH;
    /**
     * How far back an allocation may be unannounced: a previous leader stops at most a lease duration before a
     * standby takes over (docs/operations.md), doubled for the restore and for clock skew between replicas.
     */
    private volatile Duration reannounceWindow = Duration.ofSeconds(40);
    /** A node without an agent Lease may be elected to answer ARP (a stack that runs no agents). */
    private final boolean arpWithoutAgents;
    /** Which Services are ours (--manage-unclassed), the decision the webhook shares. */
    private final ManagedServices managed;
    /** The last warning raised per Service and reason, so an unchanged problem is not reported again. */
    private final Map<ServiceKey, Map<String, String>> warned = new ConcurrentHashMap<>();

    public ServiceReconciler(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, Clock clock, MalformedReports malformed, boolean arpWithoutAgents, ManagedServices managed) {
        this.managed = managed;
        this.malformed = malformed;
        this.arpWithoutAgents = arpWithoutAgents;
        this.cache = cache;
        this.writer = writer;
        this.events = events;
        this.metrics = metrics;
        this.requeue = requeue;
        this.clock = clock;
    }

    /** See {@link #announceAgainAfterTakeover}: twice the lease duration, plus 10 s. */
    public void leaseDuration(Duration lease) {
        this.reannounceWindow = lease.multipliedBy(2).plusSeconds(10);
    }

    public boolean isManaged(Service svc) {
        return managed.manages(svc);
    }

    public Result reconcile(ServiceKey key, LeaderState st) {
        Term term = st.term();
        term.ensureActive();
        Service svc = cache.service(key);
        ServiceLoadBalancer slb = cache.serviceLoadBalancer(key);
        switch (ServicePlanner.lifecycle(managed, svc, slb)) {
            case FINALIZE:
                return finalizeDeletion(key, slb, svc, st);
            case NOTHING:
                return Result.DONE;
            case FORGET:
                return forget(key, slb, st);
            case REPLACE_STALE:
                // left by an earlier Service of the same name: its finalizer path releases its address first
                LOG.info("{}: deleting ServiceLoadBalancer of a previous Service with this name (uid {})", key,
                        ServicePlanner.controllerUid(slb));
                writer.deleteServiceLoadBalancer(term, slb);
                return Result.DONE;
            default:
                return steady(key, svc, slb, st);
        }
    }

    private Result steady(ServiceKey key, Service svc, ServiceLoadBalancer current, LeaderState st) {
        Term term = st.term();
        // read by the shared reader's rules (once per version of the object, see ClusterCache#unreadable): one it
        // refuses is left alone as a malformed status is, before anything is written to it
        Optional<String> unreadable = current == null ? Optional.empty() : cache.unreadable(current);
        if (unreadable.isPresent()) {
            return skipMalformed(term, key, svc, current, ServicePlanner.unreadable(current, unreadable.get()), st);
        }
        ServiceLoadBalancer slb = current;
        // the annotation's network, else the default one (kept once it gave a VIP): the same choice as admission's
        NetworkChoice choice = DefaultNetwork.choose(
                ClusterCache.annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK), slb, cache.networks());
        Optional<ServiceLoadBalancer> shell = ServicePlanner.shell(svc, slb, choice.networkOrNull());
        if (shell.isPresent()) {
            slb = slb == null ? writer.createServiceLoadBalancer(term, shell.get())
                    : writer.updateServiceLoadBalancer(term, shell.get());
            LOG.info("{}: {} ServiceLoadBalancer (ExternalNetwork {}{})", key, current == null ? "created" : "updated",
                    slb.getSpec().getExternalNetwork(), slb.getSpec().getRequestedIP() == null ? ""
                            : ", requested IP " + slb.getSpec().getRequestedIP());
        }
        String network = slb.getSpec().getExternalNetwork();
        NetworkResolution resolution = choice instanceof NetworkChoice.Unresolved u
                ? new NetworkResolution.Unavailable(u.message())
                : NetworkResolver.resolve(network, network == null ? null : cache.network(network), cache::pool,
                        cache::unreadable);
        if (resolution instanceof NetworkResolution.Usable u) {
            u.pools().forEach(st.book()::syncPool);
        }
        // Node addresses matter only to a requested IP (the allocator has its own copy for the rest)
        AllocationNeed need = ServicePlanner.need(slb, resolution,
                slb.getSpec().getRequestedIP() == null ? Map.of() : cache.nodeAddresses());
        if (need instanceof AllocationNeed.Malformed m) {
            return skipMalformed(term, key, svc, slb, m, st);
        }
        clearWarning(key, JuneauConstants.EVENT_MALFORMED_STATUS);
        AllocationState allocation = allocate(key, svc, need, st);

        String arpName = JuneauConstants.arpAdvertisementName(key.namespace(), key.name());
        ARPAdvertisement existingArp = cache.arpAdvertisement(arpName);
        reportUnreadable(term, existingArp);
        PlanInput in = new PlanInput(svc, slb, resolution, allocation, vipPoolMode(allocation),
                cache.endpointSlicesOf(key), existingArp, cache.nodeLiveness(clock.instant()),
                cache.nodeNames(), null, clock.instant(), announceFacts(network, resolution, cache.endpointSlicesOf(key)));
        ServicePlan first = ServicePlanner.plan(in);
        WriteDenial denial = applyArp(term, key, first.arp());
        // a refused advertisement changes what the status must say: plan again with the refusal
        ServicePlan plan = denial == null ? first : ServicePlanner.plan(in.withDenial(denial));
        reportWarnings(term, key, svc, plan.warnings(), denial);

        ServiceLoadBalancerStatus previous = slb.getStatus();
        if (plan.statusChanged()) {
            writer.replaceServiceLoadBalancerStatus(term, slb, plan.status());
            logChange(key, previous, plan.status());
            for (PlannedEvent e : plan.events()) {
                count(e, plan.status());
                events.record(term, svc, e.type(), e.reason(), e.message());
                if (JuneauConstants.EVENT_IP_ALLOCATED.equals(e.reason())) {
                    // this term said it: nothing to say again after the takeover (one event write per allocation)
                    announcedInThisTerm(term).add(key);
                }
            }
            if (plan.arpNodeChanged()) {
                metrics.arpNodeChanged();
            }
        }
        if (!plan.statusChanged()) {
            announceAgainAfterTakeover(term, key, svc, slb);
        }
        if (plan.ingressChanged()) {
            WriteDenial refused = denied(() -> writer.replaceServiceIngress(term, svc, plan.ingress()),
                    "set status.loadBalancer.ingress of Service " + key);
            if (refused != null) {
                warnOnce(term, key, svc, PlannedEvent.warning(JuneauConstants.REASON_WRITE_DENIED,
                        "the API server refused to " + refused.what() + ": " + refused.message()));
                metrics.writeDenied();
                denial = denial != null ? denial : refused;
            }
        }
        return denial == null ? Result.DONE
                : Result.retry("write-denied", DENIED_RETRY_BASE, DENIED_RETRY_CAP);
    }

    /**
     * Who may announce (the network's node selector, the exclusion label, agents) and what the agents report; the
     * Node labels are looked up in the cache only for the nodes the plan asks about.
     */
    private AnnounceFacts announceFacts(String network, NetworkResolution resolution, List<EndpointSlice> slices) {
        ExternalNetwork net = resolution instanceof NetworkResolution.Usable ? cache.network(network) : null;
        LabelSelector selector = ClusterCache.nodeSelector(net);
        List<AnnounceFacts.SessionReport> sessions = new ArrayList<>();
        List<String> peers = List.of();
        if (resolution instanceof NetworkResolution.Usable u && JuneauConstants.MODE_BGP.equals(u.type())) {
            if (net != null && net.getSpec() != null && net.getSpec().getBgp() != null
                    && net.getSpec().getBgp().getPeers() != null) {
                peers = net.getSpec().getBgp().getPeers();
            }
            // only the nodes with an endpoint can advertise: their agents' sessions are all the plan reads
            for (String node : nodesOf(slices)) {
                for (BGPSession s : cache.bgpSessionsOf(node)) {
                    BGPSessionStatus st = s.getStatus();
                    sessions.add(new AnnounceFacts.SessionReport(s.getSpec() == null ? null : s.getSpec().getPeer(),
                            node, st == null ? null : st.getState(), st == null ? null : st.getLastError()));
                }
            }
        }
        return new AnnounceFacts(NodeEligibility.lookup(network, selector, cache::nodeLabels), arpWithoutAgents,
                sessions, peers);
    }

    private static java.util.Set<String> nodesOf(List<EndpointSlice> slices) {
        java.util.Set<String> nodes = new java.util.TreeSet<>();
        for (EndpointSlice s : slices) {
            if (s != null && s.getEndpoints() != null) {
                s.getEndpoints().forEach(e -> {
                    if (e != null && e.getNodeName() != null) {
                        nodes.add(e.getNodeName());
                    }
                });
            }
        }
        return nodes;
    }

    /** Runs the allocator where the plan needs it, and keeps the waiting list in step. */
    private AllocationState allocate(ServiceKey key, Service svc, AllocationNeed need, LeaderState st) {
        if (need instanceof AllocationNeed.Keep k) {
            st.pending().remove(key);
            Optional<AllocationState> lost = claim(key, new AllocationRecord(key.toString(), k.pool(), k.address()),
                    k.vip(), st);
            return lost.orElse(k.state());
        }
        if (need instanceof AllocationNeed.Decided d) {
            st.pending().remove(key);
            return d.state();
        }
        AllocationNeed.Allocate a = (AllocationNeed.Allocate) need;
        st.book().syncNodes(cache.nodes());
        st.book().syncLearntRanges(cache.learntRanges());
        AllocationResult result = st.book().allocate(key.toString(), a.pools(), a.requested());
        AllocationState state = AllocationState.of(result, a.network());
        if (result instanceof AllocationResult.Allocated ok) {
            st.pending().remove(key);
            requeue.pool(ok.pool());
        } else if (state instanceof AllocationState.Pending) {
            st.pending().put(new PendingServices.Waiting(key, createdAt(svc), a.network(), a.requested()));
        } else {
            st.pending().remove(key);
        }
        return state;
    }

    /**
     * A leader that died between writing an allocation and recording its {@code IPAllocated} event left it
     * unannounced, and the status alone does not say so. The first reconcile of each Service in a term records the
     * event again for every allocation recent enough to be one of those (its {@code Allocated} condition turned True
     * less than {@link #reannounceWindow} before the term started), unless it is there: the event's name comes from
     * its content, so the recorder looks for it by name (with and without the ARP node, which the first message
     * names only when the endpoints came first) and only records it when neither is. Older allocations cost nothing.
     */
    /** The Services whose allocation this term has announced (or looked at), cleared when a new term starts. */
    private Set<ServiceKey> announcedInThisTerm(Term term) {
        if (announcedTerm != term.number()) {
            synchronized (announced) {
                if (announcedTerm != term.number()) {
                    announced.clear();
                    termStartedAt = clock.instant();
                    announcedTerm = term.number();
                }
            }
        }
        return announced;
    }

    private void announceAgainAfterTakeover(Term term, ServiceKey key, Service svc, ServiceLoadBalancer slb) {
        ServiceLoadBalancerStatus st = slb.getStatus();
        Condition allocated = condition(st, JuneauConstants.CONDITION_ALLOCATED);
        if (st == null || st.getVip() == null || allocated == null || !"True".equals(allocated.getStatus())
                || allocated.getLastTransitionTime() == null) {
            return;
        }
        if (!announcedInThisTerm(term).add(key)) {
            return;
        }
        java.time.Instant at;
        try {
            at = java.time.Instant.parse(allocated.getLastTransitionTime());
        } catch (java.time.format.DateTimeParseException e) {
            return;
        }
        if (at.isBefore(termStartedAt.minus(reannounceWindow))) {
            return;
        }
        List<PlannedEvent> said = ServicePlanner.allocatedEvents(slb.getSpec().getExternalNetwork(), st);
        if (!said.isEmpty()) {
            events.recordUnlessRecorded(term, svc, said.get(0).type(), said.get(0).reason(),
                    said.stream().map(PlannedEvent::message).toList());
        }
    }

    /**
     * The status is the record of truth, whoever wrote it: the allocator learns it. A second claim on an address is
     * settled the same way the restore settles it (docs/allocation.md, "Two claims on one address"): the older
     * allocation keeps the address; the younger is told (re-queued, or the state returned here: Pending
     * {@code AddressConflict} naming the holder, which withdraws the VIP so the next reconcile allocates another).
     */
    private Optional<AllocationState> claim(ServiceKey key, AllocationRecord record, String vip, LeaderState st) {
        ClaimOutcome outcome = st.book().claim(record, this::claimantOlder);
        if (outcome instanceof ClaimOutcome.Lost lost) {
            LOG.warn("{}: status.vip {} is also held by Service {}, whose allocation is older; withdrawing it", key,
                    vip, lost.holder().owner());
            return Optional.of(AllocationState.conflict(vip, lost.holder().owner()));
        }
        if (outcome instanceof ClaimOutcome.Won won) {
            LOG.warn("{}: status.vip {} is also recorded by Service {}, whose allocation is younger; it gives it up",
                    key, vip, won.loser().owner());
            requeue.service(ServiceKey.parse(won.loser().owner()));
            won.replaced().ifPresent(r -> released(r, st));
        } else if (outcome instanceof ClaimOutcome.Learnt learnt) {
            learnt.replaced().ifPresent(r -> {
                LOG.warn("{}: status.vip is now {}, not {}; {} is free again", key, vip, Ipv4.format(r.address()),
                        Ipv4.format(r.address()));
                released(r, st);
            });
        }
        return Optional.empty();
    }

    /** The restore's order (oldest ServiceLoadBalancer first), from the cache, so every leader decides alike. */
    private boolean claimantOlder(String claimant, String holder) {
        return AllocatorFeed.older(cache.serviceLoadBalancer(ServiceKey.parse(claimant)),
                cache.serviceLoadBalancer(ServiceKey.parse(holder)));
    }

    /**
     * docs/phases-and-conditions.md: a status the controller cannot read is left as it is (no guess overwrites the record of truth),
     * said once as a Warning event, counted; its address stays reserved when it parses.
     */
    private Result skipMalformed(Term term, ServiceKey key, Service svc, ServiceLoadBalancer slb,
            AllocationNeed.Malformed m, LeaderState st) {
        st.pending().remove(key);
        // reserved the way the restore reserves it (the shared feed: under the pool whose entries contain it)
        // an unparsable VIP keeps the address its Service still shows in status.loadBalancer.ingress
        AllocatorFeed.records(List.of(slb), cache.pools(), owner -> ingressOf(svc)).records()
                .forEach(r -> st.book().claim(r, this::claimantOlder));
        if (warnOnce(term, key, svc, PlannedEvent.warning(JuneauConstants.EVENT_MALFORMED_STATUS,
                "ServiceLoadBalancer " + key + ": " + m.message()))) {
            metrics.malformedStatus();
        }
        return Result.DONE;
    }

    /**
     * An ARPAdvertisement the shared reader refuses (a null list entry in its metadata or status: the agent's side)
     * is said once per version on the advertisement; the fields the plan reads (spec, labels) are plain strings, so
     * the plan goes on with it.
     */
    private void reportUnreadable(Term term, ARPAdvertisement arp) {
        if (arp == null || arp.getMetadata() == null) {
            return;
        }
        List<String> problems = cache.unreadable(arp).map(p -> List.of("ARPAdvertisement " + arp.getMetadata().getName()
                + " cannot be read: " + p)).orElse(List.of());
        malformed.report(term, arp, JuneauConstants.KIND_ARP_ADVERTISEMENT, problems);
    }

    /** Applies the ARP action; a write the API server refuses comes back as a denial instead of an exception. */
    private WriteDenial applyArp(Term term, ServiceKey key, ArpAction action) {
        if (action instanceof ArpAction.Create c) {
            return denied(() -> writer.createArpAdvertisement(term, c.created()),
                    "create ARPAdvertisement \"" + c.created().getMetadata().getName() + "\" for node " + c.node());
        }
        if (action instanceof ArpAction.Move mv) {
            return denied(() -> writer.moveArpAdvertisement(term, mv.existing(), mv.node()),
                    "move ARPAdvertisement \"" + mv.existing().getMetadata().getName() + "\" to node " + mv.node());
        }
        if (action instanceof ArpAction.Delete d) {
            writer.deleteArpAdvertisement(term, d.existing());
        } else if (action instanceof ArpAction.Replace r) {
            ARPAdvertisement stale = r.stale();
            LOG.info("{}: replacing ARPAdvertisement {} made for {} in {}", key, stale.getMetadata().getName(),
                    stale.getSpec().getAddress(), stale.getSpec().getExternalNetwork());
            writer.deleteArpAdvertisement(term, stale);
            return denied(() -> writer.createArpAdvertisement(term, r.created()),
                    "create ARPAdvertisement \"" + r.created().getMetadata().getName() + "\" for node " + r.node());
        }
        return null;
    }

    /** Admission (403) or validation (422) refusals become a denial; every other failure propagates. */
    private static WriteDenial denied(Runnable write, String what) {
        try {
            write.run();
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403 && e.getCode() != 422) {
                throw e;
            }
            String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                    : String.valueOf(e.getMessage());
            return new WriteDenial(what, message);
        }
    }

    private void reportWarnings(Term term, ServiceKey key, Service svc, List<PlannedEvent> warnings,
            WriteDenial denial) {
        List<PlannedEvent> all = new ArrayList<>(warnings);
        if (denial != null) {
            all.add(PlannedEvent.warning(JuneauConstants.REASON_WRITE_DENIED,
                    "the API server refused to " + denial.what() + ": " + denial.message()));
        }
        Set<String> raised = new java.util.HashSet<>();
        for (PlannedEvent w : all) {
            raised.add(w.reason());
            if (warnOnce(term, key, svc, w) && JuneauConstants.REASON_WRITE_DENIED.equals(w.reason())) {
                metrics.writeDenied();
            }
        }
        for (String reason : List.of(ServicePlanner.WARNING_PORTS, ServicePlanner.WARNING_ARP_CONFLICT,
                JuneauConstants.REASON_WRITE_DENIED)) {
            if (!raised.contains(reason)) {
                clearWarning(key, reason);
            }
        }
    }

    /** Records the warning unless the same one is standing; true when it was recorded. */
    private boolean warnOnce(Term term, ServiceKey key, Service svc, PlannedEvent w) {
        Map<String, String> mine = warned.computeIfAbsent(key, x -> new ConcurrentHashMap<>());
        if (w.message().equals(mine.get(w.reason()))) {
            return false;
        }
        mine.put(w.reason(), w.message());
        LOG.warn("{}: {}", key, w.message());
        events.record(term, svc, w.type(), w.reason(), w.message());
        return true;
    }

    private void clearWarning(ServiceKey key, String reason) {
        Map<String, String> mine = warned.get(key);
        if (mine != null) {
            mine.remove(reason);
        }
    }

    private void count(PlannedEvent e, ServiceLoadBalancerStatus next) {
        if (JuneauConstants.EVENT_IP_ALLOCATED.equals(e.reason())) {
            metrics.allocated();
        } else if (JuneauConstants.EVENT_ALLOCATION_FAILED.equals(e.reason())) {
            metrics.allocationFailed(condition(next, JuneauConstants.CONDITION_ALLOCATED).getReason());
        }
    }

    /** The mode of the pool the VIP came from: what to announce with while the network cannot be read. */
    private String vipPoolMode(AllocationState allocation) {
        String pool = allocation instanceof AllocationState.Allocated a ? a.pool()
                : allocation instanceof AllocationState.KeptUnusable k ? k.pool() : null;
        AddressPool p = pool == null ? null : cache.pool(pool);
        return p == null || p.getSpec() == null ? null : p.getSpec().getAdvertiseMode();
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

    /** docs/phases-and-conditions.md: advertisement deleted, address released, Service ingress cleared, finalizer removed. */
    private Result finalizeDeletion(ServiceKey key, ServiceLoadBalancer slb, Service svc, LeaderState st) {
        Term term = st.term();
        String arpName = JuneauConstants.arpAdvertisementName(key.namespace(), key.name());
        ARPAdvertisement existing = cache.arpAdvertisement(arpName);
        if (existing != null && ServicePlanner.belongsTo(existing, key.namespace(), key.name())) {
            writer.deleteArpAdvertisement(term, existing);
        }
        Optional<AllocationRecord> released = st.book().release(key.toString());
        released.ifPresent(r -> released(r, st));
        if (svc != null && !ServicePlanner.currentIngress(svc).isEmpty()) {
            writer.replaceServiceIngress(term, svc, List.of());
        }
        ServiceLoadBalancer copy = KubeWriter.copy(slb, ServiceLoadBalancer.class);
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
        if (r.pool() != null && !r.pool().isEmpty()) {
            requeue.pool(r.pool());
            CapacityWaker.wake(cache, st, requeue, r.pool(), OptionalLong.of(r.address()));
        }
    }

    private static void logChange(ServiceKey key, ServiceLoadBalancerStatus prev, ServiceLoadBalancerStatus next) {
        String prevPhase = prev == null ? null : prev.getPhase();
        String prevNode = prev == null ? null : prev.getArpAnnouncingNode();
        String prevVip = prev == null ? null : prev.getVip();
        if (java.util.Objects.equals(prevPhase, next.getPhase())
                && java.util.Objects.equals(prevNode, next.getArpAnnouncingNode())
                && java.util.Objects.equals(prevVip, next.getVip())) {
            return;
        }
        Condition why = condition(next, JuneauConstants.PHASE_PENDING.equals(next.getPhase())
                || JuneauConstants.PHASE_ERROR.equals(next.getPhase()) ? JuneauConstants.CONDITION_ALLOCATED
                : JuneauConstants.CONDITION_AVAILABLE);
        LOG.info("{}: {} -> {} vip={} nodes={} arpNode={}{}", key, prevPhase == null ? "new" : prevPhase,
                next.getPhase(), next.getVip(), next.getAdvertisingNodes().size(), next.getArpAnnouncingNode(),
                why == null ? "" : " (" + why.getReason() + ")");
    }

    static Condition condition(ServiceLoadBalancerStatus s, String type) {
        if (s == null || s.getConditions() == null) {
            return null;
        }
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** The IPs of {@code status.loadBalancer.ingress} of the Service (none when it has no status). */
    static List<String> ingressOf(Service svc) {
        if (svc == null || svc.getStatus() == null || svc.getStatus().getLoadBalancer() == null
                || svc.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return svc.getStatus().getLoadBalancer().getIngress().stream().filter(java.util.Objects::nonNull)
                .map(io.fabric8.kubernetes.api.model.LoadBalancerIngress::getIp).filter(java.util.Objects::nonNull)
                .toList();
    }

    private static String createdAt(Service svc) {
        String t = svc.getMetadata().getCreationTimestamp();
        return t == null ? "" : t;
    }
}
