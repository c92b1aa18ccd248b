package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.status.AllocationState;

/**
 * The whole desired state of one Service key after one pass of {@link ServicePlanner#pass} (docs/design.md): the
 * controller's applier makes the cluster match it, writing only what differs, in the order the fields are listed.
 * Two values only the API server's answers give are left as placeholders the applier fills, never by planning
 * again: the generation the shell's write gives ({@link #statusOn}) and the refusal of the advertisement
 * ({@link #refused}).
 *
 * @param lifecycle           the path the key takes
 * @param slb                 the write to the ServiceLoadBalancer itself
 * @param allocator           what the allocator must do, with the answer the plan was made with
 * @param allocation          the allocation the status was computed with
 * @param generationFromWrite the status observes the generation the write of {@code slb} returns (a placeholder
 *                            {@link #statusOn} fills); false when the shell is not written
 * @param arp                 the ARPAdvertisement
 * @param arpProblems         what the shared reader refuses in the existing advertisement (reported once per
 *                            version); null when there is none to report on
 * @param status              the ServiceLoadBalancer status, or null when it is left as it is
 * @param ingress             the Service's {@code status.loadBalancer.ingress}, or null when it is left as it is
 * @param events              Events to record on the Service
 * @param reannounce          an {@code IPAllocated} event to record unless one of these messages was recorded
 *                            already (a previous leader may have died before saying it)
 * @param lookedAt            the key counts as looked at for that in this term
 * @param warnings            Warning events to record now (new or changed problems)
 * @param standing            the warnings standing after this pass (an empty map forgets the key)
 * @param tallies             metrics to count
 * @param pending             the waiting list
 * @param arpNodeChanged      the node answering ARP changed (for the log)
 * @param ifRefused           what the status becomes if the API server refuses the advertisement; null when the
 *                            pass plans no status
 */
public record DesiredService(Lifecycle lifecycle, SlbWrite slb, AllocatorOp allocator, AllocationState allocation,
        boolean generationFromWrite, DesiredArp arp, List<String> arpProblems, ServiceLoadBalancerStatus status,
        List<LoadBalancerIngress> ingress, List<PlannedEvent> events, List<String> reannounce, boolean lookedAt,
        List<PlannedEvent> warnings, Map<String, String> standing, List<Tally> tallies, PendingChange pending,
        boolean arpNodeChanged, IfRefused ifRefused) {

    public DesiredService {
        ingress = ingress == null ? null : List.copyOf(ingress);
        events = List.copyOf(events);
        reannounce = List.copyOf(reannounce);
        warnings = List.copyOf(warnings);
        standing = Map.copyOf(standing);
        tallies = List.copyOf(tallies);
    }

    /**
     * The status to write on {@code written}, the ServiceLoadBalancer as the API server returned it (or as read when
     * the shell was not written): with {@link #generationFromWrite} its {@code metadata.generation} fills the
     * placeholder, and a status equal to the one it carries is not written (null).
     */
    public ServiceLoadBalancerStatus statusOn(ServiceLoadBalancer written) {
        if (status == null || !generationFromWrite) {
            return status;
        }
        Long g = written == null || written.getMetadata() == null ? null : written.getMetadata().getGeneration();
        ServiceLoadBalancerStatus filled = observing(status, g == null ? 0 : g);
        return written != null && filled.equals(written.getStatus()) ? null : filled;
    }

    /**
     * This plan with the advertisement refused ({@code denial}): the status says {@code WriteDenied}, the warning
     * is said once and counted. Nothing else is decided again (lifecycle, shell, allocator, advertisement).
     */
    public DesiredService refused(WriteDenial denial) {
        return ifRefused == null ? this : ifRefused.apply(denial);
    }

    /** A copy of {@code st} observing generation {@code g} (the status and each condition). */
    private static ServiceLoadBalancerStatus observing(ServiceLoadBalancerStatus st, long g) {
        ServiceLoadBalancerStatus c = new ServiceLoadBalancerStatus();
        c.setObservedGeneration(g);
        c.setPhase(st.getPhase());
        c.setVip(st.getVip());
        c.setAddressPool(st.getAddressPool());
        c.setPorts(st.getPorts());
        c.setAdvertisingNodes(st.getAdvertisingNodes());
        c.setArpAnnouncingNode(st.getArpAnnouncingNode());
        c.setBackendSummary(st.getBackendSummary());
        List<Condition> conditions = new ArrayList<>();
        if (st.getConditions() != null) {
            st.getConditions().forEach(x -> conditions.add(new ConditionBuilder(x).withObservedGeneration(g).build()));
        }
        c.setConditions(conditions);
        return c;
    }
}
