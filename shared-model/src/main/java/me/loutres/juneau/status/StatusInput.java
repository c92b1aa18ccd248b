package me.loutres.juneau.status;

/**
 * Everything the next ServiceLoadBalancer status depends on.
 *
 * @param generation        {@code metadata.generation} of the ServiceLoadBalancer
 * @param allocation        where the Service stands with its address
 * @param backends          aggregated EndpointSlices ({@link Backends#aggregate})
 * @param networkType       bgp, arp, or null when the network is unknown
 * @param arpAnnouncingNode the elected ARP node, null if none (ignored for bgp networks)
 */
public record StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
        String arpAnnouncingNode) {
}
