package me.loutres.juneau.status;

import java.util.List;

/**
 * Everything the next ServiceLoadBalancer status depends on.
 *
 * @param generation        {@code metadata.generation} of the ServiceLoadBalancer
 * @param allocation        where the Service stands with its address
 * @param backends          aggregated EndpointSlices ({@link Backends#aggregate})
 * @param networkType       bgp, arp, or null when the network is unknown
 * @param arpAnnouncingNode the elected ARP node, null if none (ignored for bgp networks)
 * @param deadNodes         advertising nodes whose agent Lease says they are dead (SPEC §3.7), for the message
 * @param availableProblem  why no node may announce although backends would allow it (a name conflict, a
 *                          refused write); null when there is none. Forces {@code Available=False}.
 */
public record StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
        String arpAnnouncingNode, List<String> deadNodes, Problem availableProblem) {

    /** A reason and a message for a condition. */
    public record Problem(String reason, String message) {
    }

    public StatusInput {
        deadNodes = deadNodes == null ? List.of() : List.copyOf(deadNodes);
    }

    public StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
            String arpAnnouncingNode) {
        this(generation, allocation, backends, networkType, arpAnnouncingNode, List.of(), null);
    }
}
