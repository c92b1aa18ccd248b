package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BackendSummary;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/**
 * Computes the next ServiceLoadBalancer status (SPEC §1.3) from plain inputs. Deterministic: equal inputs give
 * equal statuses, so the controller writes only when something really changed.
 *
 * <p>A VIP counts as advertised when at least one node has a local ready backend and, for arp networks, a node
 * was elected to answer ARP. Degraded needs a history: only a previous phase Ready or Degraded turns a
 * not-advertised VIP into Degraded; otherwise it is Allocated (never advertised since allocation).
 */
public final class StatusCalculator {

    private StatusCalculator() {
    }

    /** Next status; keeps lastTransitionTime of conditions whose status did not change; now = RFC 3339 text. */
    public static ServiceLoadBalancerStatus next(ServiceLoadBalancerStatus previousOrNull, StatusInput in, String now) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(in.allocation(), "in.allocation");
        BackendState b = in.backends() == null ? BackendState.none() : in.backends();
        long generation = in.generation();

        ServiceLoadBalancerStatus s = new ServiceLoadBalancerStatus();
        s.setObservedGeneration(generation);
        s.setPorts(new ArrayList<>(b.ports()));
        s.setAdvertisingNodes(new ArrayList<>(b.advertisingNodes()));
        s.setBackendSummary(new BackendSummary(b.totalReady(), b.advertisingNodes().size()));

        Condition allocated;
        Condition available;
        AllocationState a = in.allocation();
        if (a instanceof AllocationState.Allocated ok) {
            boolean arp = JuneauConstants.MODE_ARP.equals(in.networkType());
            String arpNode = arp ? in.arpAnnouncingNode() : null;
            boolean hasNodes = !b.advertisingNodes().isEmpty();
            boolean advertised = hasNodes && (!arp || arpNode != null);
            s.setVip(ok.vip());
            s.setAddressPool(ok.pool());
            s.setArpAnnouncingNode(arpNode);
            s.setPhase(advertised ? JuneauConstants.PHASE_READY
                    : wasAdvertised(previousOrNull) ? JuneauConstants.PHASE_DEGRADED : JuneauConstants.PHASE_ALLOCATED);
            allocated = condition(JuneauConstants.CONDITION_ALLOCATED, true, JuneauConstants.REASON_ALLOCATED,
                    Messages.allocated(ok.vip(), ok.pool()));
            available = advertised
                    ? condition(JuneauConstants.CONDITION_AVAILABLE, true, JuneauConstants.REASON_READY,
                            Messages.ready(ok.vip(), b.advertisingNodes(), arpNode))
                    : condition(JuneauConstants.CONDITION_AVAILABLE, false, JuneauConstants.REASON_NO_READY_BACKENDS,
                            Messages.noReadyBackends(ok.vip(), hasNodes));
        } else if (a instanceof AllocationState.Pending p) {
            s.setPhase(JuneauConstants.PHASE_PENDING);
            allocated = condition(JuneauConstants.CONDITION_ALLOCATED, false, p.reason(), p.message());
            available = condition(JuneauConstants.CONDITION_AVAILABLE, false, JuneauConstants.REASON_NOT_ALLOCATED,
                    Messages.notAllocated(p.message()));
        } else {
            AllocationState.Failed f = (AllocationState.Failed) a;
            s.setPhase(JuneauConstants.PHASE_ERROR);
            allocated = condition(JuneauConstants.CONDITION_ALLOCATED, false, f.reason(), f.message());
            available = condition(JuneauConstants.CONDITION_AVAILABLE, false, JuneauConstants.REASON_NOT_ALLOCATED,
                    Messages.notAllocated(f.message()));
        }
        List<Condition> previous = previousOrNull == null || previousOrNull.getConditions() == null ? List.of()
                : previousOrNull.getConditions();
        List<Condition> conditions = new ArrayList<>();
        for (Condition c : List.of(allocated, available)) {
            c.setObservedGeneration(generation);
            c.setLastTransitionTime(transitionTime(previous, c, now));
            conditions.add(c);
        }
        s.setConditions(conditions);
        return s;
    }

    private static boolean wasAdvertised(ServiceLoadBalancerStatus previous) {
        return previous != null && (JuneauConstants.PHASE_READY.equals(previous.getPhase())
                || JuneauConstants.PHASE_DEGRADED.equals(previous.getPhase()));
    }

    private static String transitionTime(List<Condition> previous, Condition c, String now) {
        for (Condition p : previous) {
            if (p != null && c.getType().equals(p.getType())) {
                return c.getStatus().equals(p.getStatus()) && p.getLastTransitionTime() != null
                        ? p.getLastTransitionTime() : now;
            }
        }
        return now;
    }

    private static Condition condition(String type, boolean status, String reason, String message) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus(status ? "True" : "False");
        c.setReason(reason);
        c.setMessage(message);
        return c;
    }
}
