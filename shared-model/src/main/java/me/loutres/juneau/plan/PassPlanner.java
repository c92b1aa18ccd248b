package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.status.AllocationState;

/**
 * {@link ServicePlanner#pass}: one snapshot in, the whole desired state of the key out (docs/design.md). It runs
 * the planner's steps in order — lifecycle, shell, allocation need, the allocator's answer (read from the
 * snapshot's view, never changed here), status plan — and turns their answers into writes, allocator work, events,
 * warnings, metrics and the waiting list, so the controller decides nothing and asks once per pass.
 */
final class PassPlanner {
    /** The standing warnings a full plan judges again: one not raised this time no longer stands. */
    private static final List<String> JUDGED = List.of(ServicePlanner.WARNING_PORTS,
            ServicePlanner.WARNING_ARP_CONFLICT, JuneauConstants.REASON_WRITE_DENIED);

    private PassPlanner() {
    }

    static DesiredService plan(ServiceSnapshot s) {
        Lifecycle lc = ServicePlanner.lifecycle(s.managed(), s.service(), s.slb());
        return switch (lc) {
            case NOTHING -> teardown(lc, new SlbWrite.None(), new AllocatorOp.None(), new PendingChange.Unchanged(),
                    s.standing());
            // left by an earlier Service of the same name: its own finalizer path releases its address first
            case REPLACE_STALE -> teardown(lc, new SlbWrite.Delete(s.slb()), new AllocatorOp.None(),
                    new PendingChange.Unchanged(), s.standing());
            // the ServiceLoadBalancer goes (its finalizer path releases); without one, drop an address reserved for
            // the key but never recorded
            case FORGET -> s.slb() != null
                    ? teardown(lc, new SlbWrite.Delete(s.slb()), new AllocatorOp.None(), new PendingChange.Stop(),
                            Map.of())
                    : teardown(lc, new SlbWrite.None(), new AllocatorOp.Release(), new PendingChange.Stop(), Map.of());
            case FINALIZE -> finalizing(s);
            case RECONCILE -> reconcile(s);
        };
    }

    private static DesiredService teardown(Lifecycle lc, SlbWrite slb, AllocatorOp op, PendingChange pending,
            Map<String, String> standing) {
        return new DesiredService(lc, slb, op, null, false, new DesiredArp.Untouched(), null, null, null, List.of(),
                List.of(), false, List.of(), standing, List.of(), pending, false, null);
    }

    /** docs/phases-and-conditions.md: advertisement deleted, address released, ingress cleared, finalizer removed. */
    private static DesiredService finalizing(ServiceSnapshot s) {
        ServiceLoadBalancer slb = s.slb();
        DesiredArp arp = s.arp() != null && ServicePlanner.belongsTo(s.arp(), s.namespace(), s.name())
                ? new DesiredArp.Absent() : new DesiredArp.Untouched();
        List<LoadBalancerIngress> ingress = ServicePlanner.currentIngress(s.service()).isEmpty() ? null : List.of();
        List<String> finalizers = new ArrayList<>(slb.getMetadata().getFinalizers());
        finalizers.remove(JuneauConstants.FINALIZER);
        ServiceLoadBalancer done = new ServiceLoadBalancer();
        done.setMetadata(new ObjectMetaBuilder(slb.getMetadata()).withFinalizers(finalizers).build());
        done.setSpec(slb.getSpec());
        done.setStatus(slb.getStatus());
        return new DesiredService(Lifecycle.FINALIZE, new SlbWrite.Update(done), new AllocatorOp.Release(), null,
                false, arp, null, null, ingress, List.of(), List.of(), false, List.of(), Map.of(), List.of(),
                new PendingChange.Stop(), false, null);
    }

    private static DesiredService reconcile(ServiceSnapshot s) {
        Service svc = s.service();
        ServiceLoadBalancer current = s.slb();
        if (current != null && s.slbUnreadable() != null) {
            // one the shared reader refuses is left alone as a malformed status is, before anything is written to it
            return malformed(s, new SlbWrite.None(), ServicePlanner.unreadable(current, s.slbUnreadable()));
        }
        Optional<ServiceLoadBalancer> shell = ServicePlanner.shell(svc, current, s.choice().networkOrNull());
        SlbWrite write = shell.isEmpty() ? new SlbWrite.None()
                : current == null ? new SlbWrite.Create(shell.get()) : new SlbWrite.Update(shell.get());
        ServiceLoadBalancer slb = shell.orElse(current);
        AllocationNeed need = ServicePlanner.servedFamilies(svc,
                ServicePlanner.need(slb, s.resolution(), s.nodeAddresses()));
        if (need instanceof AllocationNeed.Malformed m) {
            return malformed(s, write, m);
        }
        AllocatorOp op = new AllocatorOp.None();
        AllocationState allocation = null;
        PendingChange pending = new PendingChange.Stop();
        if (need instanceof AllocationNeed.Keep k) {
            // the status is the record of truth; a second claim on its address is settled by age (the older keeps it)
            AllocationRecord record = new AllocationRecord(s.owner(), k.pool(), k.address());
            ClaimOutcome outcome = s.allocator().wouldClaim(record);
            op = new AllocatorOp.Claim(record, k.vip(), outcome);
            allocation = outcome instanceof ClaimOutcome.Lost lost
                    ? AllocationState.conflict(k.vip(), lost.holder() == null ? "another Service" : lost.holder().owner())
                    : k.state();
        } else if (need instanceof AllocationNeed.Decided d) {
            allocation = d.state();
        } else if (need instanceof AllocationNeed.Allocate a) {
            AllocationResult answer = s.allocator().wouldAllocate(s.owner(), a.pools(), a.requested());
            op = new AllocatorOp.Allocate(a.network(), a.pools(), a.requested(), answer);
            allocation = AllocationState.of(answer, a.network());
            if (allocation instanceof AllocationState.Pending) {
                pending = new PendingChange.Wait(createdAt(svc), a.network(), a.requested());
            }
        }
        // the status of a shell written now observes the generation that write returns: a placeholder the applier
        // fills (DesiredService#statusOn)
        StatusParts parts = ServicePlanner.parts(new PlanInput(svc, slb, s.resolution(), allocation,
                s.statusPoolMode(), s.slices(), s.arp(), s.liveness(), s.nodes(), null, s.now(), s.announce()));
        return settle(s, parts, write, op, allocation, pending, null);
    }

    /**
     * The status and all that follows from it, with {@code denial} (the advertisement refused) as its problem, or
     * none: the first plan of a pass, and {@link IfRefused} after a refusal, over the same decisions.
     */
    static DesiredService settle(ServiceSnapshot s, StatusParts parts, SlbWrite write, AllocatorOp op,
            AllocationState allocation, PendingChange pending, WriteDenial denial) {
        ServiceLoadBalancer slb = parts.slb();
        String network = parts.network();
        ServicePlan p = ServicePlanner.plan(parts, denial);

        List<PlannedEvent> raised = new ArrayList<>(p.warnings());
        if (denial != null) {
            raised.add(denial.warning());
        }
        Map<String, String> standing = new HashMap<>(s.standing());
        standing.remove(JuneauConstants.EVENT_MALFORMED_STATUS);
        Warnings w = Warnings.settle(standing, raised, JUDGED);
        List<Tally> tallies = new ArrayList<>();
        w.record().stream().filter(e -> JuneauConstants.REASON_WRITE_DENIED.equals(e.reason()))
                .forEach(e -> tallies.add(Tally.of(Tally.Kind.WRITE_DENIED)));

        List<PlannedEvent> events = p.statusChanged() ? p.events() : List.of();
        for (PlannedEvent e : events) {
            if (JuneauConstants.EVENT_IP_ALLOCATED.equals(e.reason())) {
                tallies.add(Tally.of(Tally.Kind.ALLOCATED));
            } else if (JuneauConstants.EVENT_ALLOCATION_FAILED.equals(e.reason())) {
                Condition c = ServicePlanner.condition(p.status(), JuneauConstants.CONDITION_ALLOCATED);
                tallies.add(new Tally(Tally.Kind.ALLOCATION_FAILED, c == null ? null : c.getReason()));
            }
        }
        if (p.statusChanged() && p.arpNodeChanged()) {
            tallies.add(Tally.of(Tally.Kind.ARP_NODE_CHANGED));
        }
        // this term said it: nothing to say again after a takeover (one event write per allocation)
        boolean lookedAt = events.stream().anyMatch(e -> JuneauConstants.EVENT_IP_ALLOCATED.equals(e.reason()));
        List<String> reannounce = List.of();
        if (!p.statusChanged()) {
            Optional<List<String>> again = reannounce(s, network, slb.getStatus());
            lookedAt = again.isPresent();
            reannounce = again.orElse(List.of());
        }
        boolean fromWrite = !(write instanceof SlbWrite.None);
        return new DesiredService(Lifecycle.RECONCILE, write, op, allocation, fromWrite, arp(s, network, p),
                arpProblems(s), p.statusChanged() || fromWrite ? p.status() : null,
                p.ingressChanged() ? p.ingress() : null, events, reannounce, lookedAt, w.record(), w.standing(),
                tallies, pending, p.arpNodeChanged(), new IfRefused(s, parts, write, op, allocation, pending));
    }

    /**
     * docs/phases-and-conditions.md: a status the controller cannot read is left as it is (no guess overwrites the
     * record of truth), said once as a Warning event, counted; its address stays reserved when it parses.
     */
    private static DesiredService malformed(ServiceSnapshot s, SlbWrite write, AllocationNeed.Malformed m) {
        Warnings w = Warnings.once(s.standing(), PlannedEvent.warning(JuneauConstants.EVENT_MALFORMED_STATUS,
                "ServiceLoadBalancer " + s.owner() + ": " + m.message()));
        List<Tally> tallies = w.said(JuneauConstants.EVENT_MALFORMED_STATUS)
                ? List.of(Tally.of(Tally.Kind.MALFORMED_STATUS)) : List.of();
        return new DesiredService(Lifecycle.RECONCILE, write,
                new AllocatorOp.ReserveRecorded(ServicePlanner.ingressIps(s.service())), null, false,
                new DesiredArp.Untouched(), null, null, null, List.of(), List.of(), false, w.record(), w.standing(),
                tallies, new PendingChange.Stop(), false, null);
    }

    /** The planner's ARP action as the advertisement that should exist; the writer derives the write from it. */
    private static DesiredArp arp(ServiceSnapshot s, String network, ServicePlan p) {
        ArpAction a = p.arp();
        if (a instanceof ArpAction.Create c) {
            return new DesiredArp.Present(c.created());
        }
        if (a instanceof ArpAction.Replace r) {
            return new DesiredArp.Present(r.created());
        }
        if (a instanceof ArpAction.Move mv) {
            return new DesiredArp.Present(ServicePlanner.advertisement(s.namespace(), s.name(),
                    ServicePlanner.uidOf(s.service()), network,
                    p.status().getVip(), mv.node()));
        }
        return a instanceof ArpAction.Delete ? new DesiredArp.Absent() : new DesiredArp.Untouched();
    }

    /**
     * An advertisement the shared reader refuses (a null list entry in its metadata or status: the agent's side) is
     * reported on the advertisement once per version; the fields the plan reads are plain strings, so it goes on.
     */
    private static List<String> arpProblems(ServiceSnapshot s) {
        ARPAdvertisement arp = s.arp();
        if (arp == null || arp.getMetadata() == null) {
            return null;
        }
        return s.arpUnreadable() == null ? List.of()
                : List.of("ARPAdvertisement " + arp.getMetadata().getName() + " cannot be read: " + s.arpUnreadable());
    }

    /**
     * A leader that died between writing an allocation and recording its {@code IPAllocated} event left it
     * unannounced, and the status alone does not say so. The first pass over each Service in a term records the
     * event again for an allocation recent enough to be one of those (its {@code Allocated} condition turned True
     * after {@link ServiceSnapshot#reannounceSince}), unless it is there (the event's name comes from its content:
     * with and without the ARP node, which the first message names only when the endpoints came first). Empty when
     * the key is not looked at; an empty list when it is, with nothing to say.
     */
    private static Optional<List<String>> reannounce(ServiceSnapshot s, String network, ServiceLoadBalancerStatus st) {
        Condition allocated = ServicePlanner.condition(st, JuneauConstants.CONDITION_ALLOCATED);
        if (st == null || st.getVip() == null || allocated == null || !"True".equals(allocated.getStatus())
                || allocated.getLastTransitionTime() == null) {
            return Optional.empty();
        }
        if (!s.firstLook()) {
            return Optional.of(List.of());
        }
        Instant at;
        try {
            at = Instant.parse(allocated.getLastTransitionTime());
        } catch (DateTimeParseException e) {
            return Optional.of(List.of());
        }
        if (at.isBefore(s.reannounceSince())) {
            return Optional.of(List.of());
        }
        return Optional.of(ServicePlanner.allocatedEvents(network, st).stream().map(PlannedEvent::message).toList());
    }

    private static String createdAt(Service svc) {
        String t = svc.getMetadata().getCreationTimestamp();
        return t == null ? "" : t;
    }
}
