package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.status.AllocationState;

/**
 * The whole desired state of one Service key after one pass of {@link ServicePlanner#pass} (docs/design.md): the
 * controller's applier makes the cluster match it, writing only what differs, in the order the fields are listed.
 *
 * @param lifecycle      the path the key takes
 * @param slb            the write to the ServiceLoadBalancer itself
 * @param allocator      what the allocator must do
 * @param complete       false when the status depends on what the first writes return (the generation after a
 *                       spec change, the allocator's answer): carry out {@code slb} and {@code allocator}, then ask
 *                       again with {@link ServiceSnapshot#answered}; nothing else of this plan is meant
 * @param assumed        the allocation the status was computed with (a claim the allocator refuses changes it)
 * @param arp            the ARPAdvertisement
 * @param arpProblems    what the shared reader refuses in the existing advertisement (reported once per version);
 *                       null when there is none to report on
 * @param status         the ServiceLoadBalancer status, or null when it is left as it is
 * @param ingress        the Service's {@code status.loadBalancer.ingress}, or null when it is left as it is
 * @param events         Events to record on the Service
 * @param reannounce     an {@code IPAllocated} event to record unless one of these messages was recorded already (a
 *                       previous leader may have died before saying it)
 * @param lookedAt       the key counts as looked at for that in this term
 * @param warnings       Warning events to record now (new or changed problems)
 * @param standing       the warnings standing after this pass (an empty map forgets the key)
 * @param tallies        metrics to count
 * @param pending        the waiting list
 * @param arpNodeChanged the node answering ARP changed (for the log)
 */
public record DesiredService(Lifecycle lifecycle, SlbWrite slb, AllocatorOp allocator, boolean complete,
        AllocationState assumed, DesiredArp arp, List<String> arpProblems, ServiceLoadBalancerStatus status,
        List<LoadBalancerIngress> ingress, List<PlannedEvent> events, List<String> reannounce, boolean lookedAt,
        List<PlannedEvent> warnings, Map<String, String> standing, List<Tally> tallies, PendingChange pending,
        boolean arpNodeChanged) {

    public DesiredService {
        ingress = ingress == null ? null : List.copyOf(ingress);
        events = List.copyOf(events);
        reannounce = List.copyOf(reannounce);
        warnings = List.copyOf(warnings);
        standing = Map.copyOf(standing);
        tallies = List.copyOf(tallies);
    }
}
