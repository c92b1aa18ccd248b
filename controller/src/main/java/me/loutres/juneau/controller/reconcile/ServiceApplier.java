package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.ClaimOutcome;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.plan.AllocatorOp;
import me.loutres.juneau.plan.DesiredArp;
import me.loutres.juneau.plan.DesiredService;
import me.loutres.juneau.plan.PendingChange;
import me.loutres.juneau.plan.PlannedEvent;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.plan.ServiceSnapshot;
import me.loutres.juneau.plan.SlbWrite;
import me.loutres.juneau.plan.Tally;
import me.loutres.juneau.plan.Warnings;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the cluster match a {@link DesiredService}: writes only what differs from what the snapshot read (the
 * ARPAdvertisement is compared with the one that exists by {@link ArpWriter}, the status and the ingress come only
 * when they changed),
 * every write through {@link KubeWriter}, which checks the leadership term first. It also commits the plan's
 * allocator work to the book (checked against the view the plan read) and keeps the waiting list as the plan says,
 * and fills in what only the API server answers (the written shell's generation, a refused advertisement) through
 * the plan's own placeholders. Nothing is decided here but how a write is carried out.
 */
final class ServiceApplier {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceApplier.class);
    /** Counted when the warning is recorded; the others once the status that carries them is written. */
    private static final Set<Tally.Kind> WARNING_TALLIES = Set.of(Tally.Kind.WRITE_DENIED, Tally.Kind.MALFORMED_STATUS);

    private final ClusterCache cache;
    private final KubeWriter writer;
    private final EventRecorder events;
    private final ControllerMetrics metrics;
    private final Requeue requeue;
    private final MalformedReports malformed;
    private final ServiceMemory memory;
    private final ArpWriter arps;
    private final java.util.function.BiPredicate<String, String> claimOrder;

    ServiceApplier(ClusterCache cache, KubeWriter writer, EventRecorder events, ControllerMetrics metrics,
            Requeue requeue, MalformedReports malformed, ServiceMemory memory) {
        this.cache = cache;
        this.writer = writer;
        this.events = events;
        this.metrics = metrics;
        this.requeue = requeue;
        this.malformed = malformed;
        this.memory = memory;
        this.arps = new ArpWriter(writer);
        this.claimOrder = ServiceSnapshots.claimOrder(cache);
    }

    /** Every path but RECONCILE: advertisement, allocator, ingress, then the ServiceLoadBalancer (finalizer last). */
    void teardown(ServiceKey key, ServiceSnapshot s, DesiredService d, LeaderState st) {
        Term term = st.term();
        writeArp(term, key, s.arp(), d.arp());
        Optional<AllocationRecord> released = d.allocator() instanceof AllocatorOp.Release
                ? st.book().release(key.toString()) : Optional.empty();
        released.ifPresent(r -> released(r, st));
        if (d.ingress() != null) {
            setIngress(term, s.service(), d.ingress());
        }
        switch (d.lifecycle()) {
            case REPLACE_STALE -> LOG.info("{}: deleting ServiceLoadBalancer of a previous Service with this name"
                    + " (uid {})", key, ServicePlanner.controllerUid(s.slb()));
            case FORGET -> {
                if (s.slb() != null) {
                    LOG.info("{}: Service is gone or no longer managed; deleting its ServiceLoadBalancer", key);
                }
            }
            case FINALIZE -> LOG.info("{}: ServiceLoadBalancer deleted{}", key, released.map(r -> ", released "
                    + Ipv4.format(r.address()) + " to AddressPool " + r.pool()).orElse(""));
            default -> {
            }
        }
        writeSlb(term, key, s.slb(), d.slb());
        pending(key, d.pending(), st);
        memory.standing(key, d.standing());
    }

    /** The ServiceLoadBalancer as it is after the write (the one read when there is none). */
    ServiceLoadBalancer writeSlb(Term term, ServiceKey key, ServiceLoadBalancer read, SlbWrite w) {
        if (w instanceof SlbWrite.Delete del) {
            writer.delete(term, writer.kinds().slbs(), del.slb());
            return null;
        }
        ServiceLoadBalancer written;
        if (w instanceof SlbWrite.Create c) {
            written = writer.create(term, writer.kinds().slbs(), c.slb());
        } else if (w instanceof SlbWrite.Update u) {
            written = writer.update(term, writer.kinds().slbs(), u.slb());
        } else {
            return read;
        }
        if (read != null && read.getMetadata() != null && read.getMetadata().getDeletionTimestamp() != null) {
            return written; // the finalizer was removed: logged with what was released
        }
        LOG.info("{}: {} ServiceLoadBalancer (ExternalNetwork {}{})", key, read == null ? "created" : "updated",
                written.getSpec().getExternalNetwork(), written.getSpec().getRequestedIP() == null ? ""
                        : ", requested IP " + written.getSpec().getRequestedIP());
        return written;
    }

    /**
     * Commits the plan's allocator work to the term's book, checked against the view the plan read: false, with
     * nothing changed, when the book moved under the plan so that its answer no longer holds (the pass is stale).
     * The status is the record of truth, whoever wrote it: a claim is learnt, a second claim on an address settled
     * the way the restore settles it (docs/allocation.md, "Two claims on one address"): the older allocation keeps
     * it, the younger is told (re-queued, or {@code AddressConflict} in the plan already).
     */
    boolean commitAllocation(ServiceKey key, ServiceSnapshot s, DesiredService d, LeaderState st) {
        AllocatorOp op = d.allocator();
        if (op instanceof AllocatorOp.Allocate a) {
            if (!st.book().commit(key.toString(), a, s.allocator().version())) {
                return false;
            }
            if (a.result() instanceof AllocationResult.Allocated ok) {
                requeue.pool(ok.pool());
            }
        } else if (op instanceof AllocatorOp.Claim c) {
            Optional<ClaimOutcome> outcome = st.book().commit(c, claimOrder);
            if (outcome.isEmpty()) {
                return false;
            }
            claimed(key, c, outcome.get(), st);
        } else if (op instanceof AllocatorOp.ReserveRecorded r) {
            // reserved the way the restore reserves it (the shared feed: under the pool whose entries contain it)
            AllocatorFeed.records(List.of(s.slb()), cache.pools(), owner -> r.ingress()).records()
                    .forEach(rec -> st.book().claim(rec, claimOrder));
        }
        return true;
    }

    private void claimed(ServiceKey key, AllocatorOp.Claim c, ClaimOutcome outcome, LeaderState st) {
        if (outcome instanceof ClaimOutcome.Lost lost) {
            LOG.warn("{}: status.vip {} is also held by Service {}, whose allocation is older; withdrawing it", key,
                    c.vip(), lost.holder().owner());
            // the pass after the one that says so allocates anew: its own status write's echo re-queues nothing
            requeue.service(key);
        } else if (outcome instanceof ClaimOutcome.Won won) {
            LOG.warn("{}: status.vip {} is also recorded by Service {}, whose allocation is younger; it gives it up",
                    key, c.vip(), won.loser().owner());
            requeue.service(ServiceKey.parse(won.loser().owner()));
            won.replaced().ifPresent(r -> released(r, st));
        } else if (outcome instanceof ClaimOutcome.Learnt learnt) {
            learnt.replaced().ifPresent(r -> {
                LOG.warn("{}: status.vip is now {}, not {}; {} is free again", key, c.vip(),
                        Ipv4.format(r.address()), Ipv4.format(r.address()));
                released(r, st);
            });
        }
    }

    /** The shell as written is the one planned (else something rewrote it: the pass looks again from a fresh read). */
    static boolean asPlanned(SlbWrite w, ServiceLoadBalancer written) {
        ServiceLoadBalancer planned = w instanceof SlbWrite.Create c ? c.slb()
                : w instanceof SlbWrite.Update u ? u.slb() : null;
        return planned == null || (written != null && Objects.equals(planned.getSpec(), written.getSpec())
                && ServicePlanner.hasFinalizer(written) && ServicePlanner.controllerUid(written) != null);
    }

    void pending(ServiceKey key, PendingChange change, LeaderState st) {
        if (change instanceof PendingChange.Stop) {
            st.pending().remove(key);
        } else if (change instanceof PendingChange.Wait w) {
            st.pending().put(new PendingServices.Waiting(key, w.createdAt(), w.network(), w.requested()));
        }
    }

    /** The advertisement as a dependent resource ({@link ArpWriter}): only the difference is written. */
    WriteDenial writeArp(Term term, ServiceKey key, ARPAdvertisement actual, DesiredArp desired) {
        return arps.apply(term, key, actual, desired);
    }

    /**
     * The rest of a RECONCILE pass, in order: reports, warnings, status, its events, the takeover's event, the
     * ingress. True when a write was refused (the key is retried with backoff).
     */
    boolean finish(ServiceKey key, ServiceSnapshot s, ServiceLoadBalancer slb, DesiredService d, LeaderState st) {
        Term term = st.term();
        Service svc = s.service();
        if (d.arpProblems() != null) {
            malformed.report(term, s.arp(), JuneauConstants.KIND_ARP_ADVERTISEMENT, d.arpProblems());
        }
        warn(term, key, svc, d.warnings(), d.standing());
        count(d.tallies(), true);
        ServiceLoadBalancerStatus status = d.statusOn(slb);
        if (status != null) {
            writer.updateStatus(term, writer.kinds().slbs(), WriteBodies.withStatus(slb, status));
            logChange(key, slb.getStatus(), status);
            d.events().forEach(e -> events.record(term, svc, e.type(), e.reason(), e.message()));
            count(d.tallies(), false);
        }
        if (d.lookedAt()) {
            memory.look(term, key);
        }
        if (!d.reannounce().isEmpty()) {
            events.recordUnlessRecorded(term, svc, EventRecorder.NORMAL, JuneauConstants.EVENT_IP_ALLOCATED,
                    d.reannounce());
        }
        WriteDenial refused = d.ingress() == null ? null : ArpWriter.denied(
                () -> setIngress(term, svc, d.ingress()),
                "set status.loadBalancer.ingress of Service " + key);
        if (refused != null) {
            Warnings w = Warnings.once(memory.standing(key), refused.warning());
            warn(term, key, svc, w.record(), w.standing());
            metrics.writeDenied();
        }
        return refused != null;
    }

    /** {@code status.loadBalancer.ingress} of the Service (empty clears it), at the version read. */
    private void setIngress(Term term, Service svc, List<LoadBalancerIngress> ingress) {
        writer.updateStatus(term, writer.kinds().services(), WriteBodies.withIngress(svc, ingress));
    }

    private void warn(Term term, ServiceKey key, Service svc, List<PlannedEvent> warnings,
            java.util.Map<String, String> standing) {
        memory.standing(key, standing);
        for (PlannedEvent w : warnings) {
            LOG.warn("{}: {}", key, w.message());
            events.record(term, svc, w.type(), w.reason(), w.message());
        }
    }

    private void count(List<Tally> tallies, boolean warnings) {
        for (Tally t : tallies) {
            if (WARNING_TALLIES.contains(t.kind()) != warnings) {
                continue;
            }
            switch (t.kind()) {
                case ALLOCATED -> metrics.allocated();
                case ALLOCATION_FAILED -> metrics.allocationFailed(t.reason());
                case ARP_NODE_CHANGED -> metrics.arpNodeChanged();
                case WRITE_DENIED -> metrics.writeDenied();
                case MALFORMED_STATUS -> metrics.malformedStatus();
            }
        }
    }

    private void released(AllocationRecord r, LeaderState st) {
        if (r.pool() != null && !r.pool().isEmpty()) {
            requeue.pool(r.pool());
            CapacityWaker.wake(cache, st, requeue, r.pool(), OptionalLong.of(r.address()));
        }
    }

    private static void logChange(ServiceKey key, ServiceLoadBalancerStatus prev, ServiceLoadBalancerStatus next) {
        String prevPhase = prev == null ? null : prev.getPhase();
        if (Objects.equals(prevPhase, next.getPhase())
                && Objects.equals(prev == null ? null : prev.getArpAnnouncingNode(), next.getArpAnnouncingNode())
                && Objects.equals(prev == null ? null : prev.getVip(), next.getVip())) {
            return;
        }
        String type = JuneauConstants.PHASE_PENDING.equals(next.getPhase())
                || JuneauConstants.PHASE_ERROR.equals(next.getPhase()) ? JuneauConstants.CONDITION_ALLOCATED
                        : JuneauConstants.CONDITION_AVAILABLE;
        Condition why = next.getConditions() == null ? null : next.getConditions().stream()
                .filter(c -> c != null && type.equals(c.getType())).findFirst().orElse(null);
        LOG.info("{}: {} -> {} vip={} nodes={} arpNode={}{}", key, prevPhase == null ? "new" : prevPhase,
                next.getPhase(), next.getVip(), next.getAdvertisingNodes().size(), next.getArpAnnouncingNode(),
                why == null ? "" : " (" + why.getReason() + ")");
    }
}
