package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import me.loutres.juneau.allocation.AllocatorView;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkChoice;

/**
 * Everything one pass over a Service key reads, taken once at the start of the pass (docs/design.md, "The path of
 * one Service"): plain data, so the plan of a pass cannot read two versions of anything (the agent Leases and the
 * Node labels are copied for the Service's nodes, never looked up in a live store). References are resolved here
 * through the shared readers (which ExternalNetwork, its AddressPools); every decision on what to write, and what
 * the allocator must do, is {@link ServicePlanner#pass}'s, taken once per pass.
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
 * @param allocator       the allocator as the pass found it (its pools synced with the cache first): read-only,
 *                        the plan asks it what it would answer and names that answer in its {@link AllocatorOp}
 */
public record ServiceSnapshot(String namespace, String name, ManagedServices managed, Service service,
        ServiceLoadBalancer slb, String slbUnreadable, NetworkChoice choice, NetworkResolution resolution,
        String statusPoolMode, Map<Long, String> nodeAddresses, List<EndpointSlice> slices, ARPAdvertisement arp,
        String arpUnreadable, NodeLiveness liveness, Set<String> nodes, AnnounceFacts announce, Instant now,
        Map<String, String> standing, boolean firstLook, Instant reannounceSince, AllocatorView allocator) {

    public ServiceSnapshot {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(managed, "managed");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(allocator, "allocator");
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
}
