package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.status.AllocationState;

/**
 * Everything one Service's plan depends on, as read (plain data; the planner calls nothing).
 *
 * @param service     the managed Service
 * @param slb         its ServiceLoadBalancer as it is now (metadata and spec already right, see
 *                    {@link ServicePlanner#shell})
 * @param resolution  its ExternalNetwork resolved
 * @param allocation  the allocator's answer for it ({@link ServicePlanner#need} then the allocator)
 * @param vipPoolMode advertiseMode of the pool the VIP came from (used when the network cannot be read); or null
 * @param slices      its EndpointSlices
 * @param existingArp the ARPAdvertisement named {@code slb-<ns>-<name>}, whoever made it; or null
 * @param liveness    node agents' Leases at {@code now}
 * @param nodes       names of the Node objects that exist (an advertisement may only name those)
 * @param denial      a write of this reconcile the API server refused, or null
 * @param now         the time conditions that change get as {@code lastTransitionTime}
 * @param announce    who may announce (node selector, exclusion label, agents) and what the agents report
 */
public record PlanInput(Service service, ServiceLoadBalancer slb, NetworkResolution resolution,
        AllocationState allocation, String vipPoolMode, List<EndpointSlice> slices, ARPAdvertisement existingArp,
        NodeLiveness liveness, Set<String> nodes, WriteDenial denial, Instant now, AnnounceFacts announce) {

    /** Every node may announce and a node without an agent may answer ARP ({@link AnnounceFacts#lenient()}). */
    public PlanInput(Service service, ServiceLoadBalancer slb, NetworkResolution resolution,
            AllocationState allocation, String vipPoolMode, List<EndpointSlice> slices, ARPAdvertisement existingArp,
            NodeLiveness liveness, Set<String> nodes, WriteDenial denial, Instant now) {
        this(service, slb, resolution, allocation, vipPoolMode, slices, existingArp, liveness, nodes, denial, now,
                AnnounceFacts.lenient());
    }

    public PlanInput {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(slb, "slb");
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(allocation, "allocation");
        Objects.requireNonNull(now, "now");
        // lists the caller builds may hold a null (a damaged read); the planner sees only real entries
        slices = slices == null ? List.of() : slices.stream().filter(Objects::nonNull).toList();
        liveness = liveness == null ? NodeLiveness.unknown() : liveness;
        nodes = nodes == null ? Set.of() : nodes.stream().filter(Objects::nonNull)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        announce = announce == null ? AnnounceFacts.lenient() : announce;
    }

    public PlanInput withDenial(WriteDenial d) {
        return new PlanInput(service, slb, resolution, allocation, vipPoolMode, slices, existingArp, liveness, nodes,
                d, now, announce);
    }
}
