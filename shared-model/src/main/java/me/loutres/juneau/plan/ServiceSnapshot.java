package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.status.AllocationState;

/**
 * Everything one pass over a Service key reads, taken once at the start of the pass (docs/design.md, "The path of
 * one Service"): plain data, so the plan of a pass cannot read two versions of anything (the agent Leases and the
 * Node labels are copied for the Service's nodes, never looked up in a live store). References are resolved here
 * through the shared readers (which ExternalNetwork, its AddressPools); every decision on what to write is
 * {@link ServicePlanner#pass}'s.
 *
 * @param namespace       the key's namespace
 * @param name            the key's name
 * @param managed         which Services are Juneau's (--manage-unclassed)
 * @param service         the Service, or null when it is gone
 * @param slb             its ServiceLoadBalancer, or null
 * @param slbUnreadable   why the shared reader refuses the ServiceLoadBalancer, or null when it reads it
 * @param choice          the network the Service asks for ({@code DefaultNetwork.choose}); null without a Service
 * @param resolution      that network resolved; null without a Service
 * @param statusPoolMode  advertiseMode of the AddressPool {@code status.addressPool} names (announcing while the
 *                        network cannot be read), or null
 * @param nodeAddresses   Node InternalIPs → Node name; read only when the Service requests an address
 * @param slices          the Service's EndpointSlices
 * @param arp             the ARPAdvertisement named {@code slb-<ns>-<name>}, whoever made it; or null
 * @param arpUnreadable   why the shared reader refuses that advertisement, or null
 * @param liveness        the agent Leases of the Service's nodes, judged at {@code now}
 * @param nodes           names of the Node objects that exist
 * @param announce        who may announce (labels of the Service's nodes, copied) and what agents report
 * @param now             the time of the pass
 * @param standing        the warnings said for this key and still standing (reason → message)
 * @param firstLook       the first pass over this key in the current leadership term
 * @param reannounceSince an allocation whose {@code Allocated} condition turned True after this instant may have
 *                        been left unannounced by the previous leader
 * @param answer          the allocator's answer, once the plan asked for it (second call of a pass); else null
 * @param denial          a write of this pass the API server refused, or null
 */
public record ServiceSnapshot(String namespace, String name, ManagedServices managed, Service service,
        ServiceLoadBalancer slb, String slbUnreadable, NetworkChoice choice, NetworkResolution resolution,
        String statusPoolMode, Map<Long, String> nodeAddresses, List<EndpointSlice> slices, ARPAdvertisement arp,
        String arpUnreadable, NodeLiveness liveness, Set<String> nodes, AnnounceFacts announce, Instant now,
        Map<String, String> standing, boolean firstLook, Instant reannounceSince, AllocationState answer,
        WriteDenial denial) {

    public ServiceSnapshot {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(managed, "managed");
        Objects.requireNonNull(now, "now");
        nodeAddresses = nodeAddresses == null ? Map.of() : Map.copyOf(nodeAddresses);
        slices = slices == null ? List.of() : slices.stream().filter(Objects::nonNull).toList();
        liveness = liveness == null ? NodeLiveness.unknown() : liveness;
        nodes = nodes == null ? Set.of() : Set.copyOf(nodes.stream().filter(Objects::nonNull).toList());
        announce = announce == null ? AnnounceFacts.lenient() : announce;
        standing = standing == null ? Map.of() : Map.copyOf(standing);
        reannounceSince = reannounceSince == null ? Instant.MAX : reannounceSince;
    }

    /** {@code namespace/name}, as the allocator names owners. */
    public String owner() {
        return namespace + "/" + name;
    }

    /**
     * The same read after the first plan was carried out in part: {@code written} is the ServiceLoadBalancer as the
     * API server returned it (its generation is the one the status observes), {@code allocated} the allocator's
     * answer. Only what this pass wrote itself changes; nothing is read again.
     */
    public ServiceSnapshot answered(ServiceLoadBalancer written, AllocationState allocated) {
        return new ServiceSnapshot(namespace, name, managed, service, written, slbUnreadable, choice, resolution,
                statusPoolMode, nodeAddresses, slices, arp, arpUnreadable, liveness, nodes, announce, now, standing,
                firstLook, reannounceSince, allocated, denial);
    }

    /** The same read, with a write of this pass that the API server refused. */
    public ServiceSnapshot denied(WriteDenial d) {
        return new ServiceSnapshot(namespace, name, managed, service, slb, slbUnreadable, choice, resolution,
                statusPoolMode, nodeAddresses, slices, arp, arpUnreadable, liveness, nodes, announce, now, standing,
                firstLook, reannounceSince, answer, d);
    }
}
