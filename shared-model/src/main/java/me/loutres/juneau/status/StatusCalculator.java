package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BackendSummary;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/**
 * Computes the next ServiceLoadBalancer status (docs/phases-and-conditions.md) from plain inputs. Deterministic: equal inputs give
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
        StatusInput.Problem problem = in.availableProblem();
        if (a instanceof AllocationState.Allocated || a instanceof AllocationState.KeptUnusable) {
            String vip = a instanceof AllocationState.Allocated ok ? ok.vip() : ((AllocationState.KeptUnusable) a).vip();
            String pool = a instanceof AllocationState.Allocated ok ? ok.pool()
                    : ((AllocationState.KeptUnusable) a).pool();
            boolean arp = JuneauConstants.MODE_ARP.equals(in.networkType());
            String arpNode = arp && problem == null ? in.arpAnnouncingNode() : null;
            boolean hasNodes = !b.advertisingNodes().isEmpty();
            boolean advertised = hasNodes && (!arp || arpNode != null) && problem == null;
            s.setVip(vip);
            s.setAddressPool(pool);
            s.setArpAnnouncingNode(arpNode);
            if (a instanceof AllocationState.KeptUnusable k) {
                s.setPhase(JuneauConstants.PHASE_ERROR);
                allocated = condition(JuneauConstants.CONDITION_ALLOCATED, false, k.reason(),
                        Messages.keptUnusable(vip, k.message()));
            } else {
                s.setPhase(advertised ? JuneauConstants.PHASE_READY
                        : wasAdvertised(previousOrNull) ? JuneauConstants.PHASE_DEGRADED
                        : JuneauConstants.PHASE_ALLOCATED);
                allocated = condition(JuneauConstants.CONDITION_ALLOCATED, true, JuneauConstants.REASON_ALLOCATED,
                        Messages.allocated(vip, pool));
            }
            if (problem != null) {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, false, problem.reason(), problem.message());
            } else if (advertised) {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, true, JuneauConstants.REASON_READY,
                        Messages.ready(vip, b.advertisingNodes(), arpNode) + Messages.notAdvertising(in.leftOut()));
            } else if (arp && hasNodes && !in.deadNodes().isEmpty()) {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, false,
                        JuneauConstants.REASON_NO_READY_BACKENDS, Messages.onlyDeadNodes(vip, in.deadNodes())
                                + Messages.notAdvertising(in.noAgentNodes().isEmpty() ? in.leftOut()
                                        : java.util.stream.Stream.concat(in.leftOut().stream(), in.noAgentNodes()
                                                .stream().map(n -> n + ": runs no juneau-agent")).toList()));
            } else if (arp && hasNodes && !in.noAgentNodes().isEmpty()) {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, false,
                        JuneauConstants.REASON_NO_READY_BACKENDS, Messages.noAgents(vip, in.noAgentNodes())
                                + Messages.notAdvertising(in.leftOut()));
            } else if (!hasNodes && !in.leftOut().isEmpty()) {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, false,
                        JuneauConstants.REASON_NO_READY_BACKENDS, Messages.noEligibleNode(vip, in.leftOut()));
            } else {
                available = condition(JuneauConstants.CONDITION_AVAILABLE, false,
                        JuneauConstants.REASON_NO_READY_BACKENDS, Messages.noReadyBackends(vip, hasNodes)
                                + Messages.notAdvertising(in.leftOut()));
            }
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
        List<Condition> all = new ArrayList<>(List.of(allocated, available));
        if (in.announcement() != null) {
            StatusInput.Announcement an = in.announcement();
            if (a instanceof AllocationState.Allocated || a instanceof AllocationState.KeptUnusable) {
                all.add(condition(JuneauConstants.CONDITION_ANNOUNCED, an.announced(), an.reason(), an.message()));
            } else {
                all.add(condition(JuneauConstants.CONDITION_ANNOUNCED, false, JuneauConstants.REASON_NOT_ALLOCATED,
                        available.getMessage()));
            }
        }
        List<Condition> conditions = new ArrayList<>();
        for (Condition c : all) {
            c.setObservedGeneration(generation);
            c.setLastTransitionTime(transitionTime(previous, c, now));
            conditions.add(c);
        }
        s.setConditions(conditions);
        return s;
    }

    /** Ready or Degraded before; or in Error over its network while still announced (the VIP was out there). */
    private static boolean wasAdvertised(ServiceLoadBalancerStatus previous) {
        if (previous == null) {
            return false;
        }
        if (JuneauConstants.PHASE_READY.equals(previous.getPhase())
                || JuneauConstants.PHASE_DEGRADED.equals(previous.getPhase())) {
            return true;
        }
        if (!JuneauConstants.PHASE_ERROR.equals(previous.getPhase()) || previous.getVip() == null
                || previous.getConditions() == null) {
            return false;
        }
        return previous.getConditions().stream().anyMatch(c -> c != null
                && JuneauConstants.CONDITION_AVAILABLE.equals(c.getType()) && "True".equals(c.getStatus()));
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
