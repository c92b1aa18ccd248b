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
 * @param deadNodes         advertising nodes whose agent Lease says they are dead (docs/phases-and-conditions.md), for the message
 * @param availableProblem  why no node may announce although backends would allow it (a name conflict, a
 *                          refused write); null when there is none. Forces {@code Available=False}.
 * @param leftOut           {@code node: why} for each node with a ready backend that may not advertise (excluded,
 *                          not selected), for the messages
 * @param noAgentNodes      arp: advertising nodes that run no agent (no agent Lease), so cannot be elected
 * @param announcement      condition {@code Announced} when the VIP is allocated; null leaves the condition out
 */
public record StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
        String arpAnnouncingNode, List<String> deadNodes, Problem availableProblem, List<String> leftOut,
        List<String> noAgentNodes, Announcement announcement) {

    /** A reason and a message for a condition. */
    public record Problem(String reason, String message) {
    }

    /** Condition {@code Announced}: whether the VIP really reaches the network, from what the agents report. */
    public record Announcement(boolean announced, String reason, String message) {
    }

    public StatusInput {
        deadNodes = deadNodes == null ? List.of() : List.copyOf(deadNodes);
        leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        noAgentNodes = noAgentNodes == null ? List.of() : List.copyOf(noAgentNodes);
    }

    public StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
            String arpAnnouncingNode, List<String> deadNodes, Problem availableProblem) {
        this(generation, allocation, backends, networkType, arpAnnouncingNode, deadNodes, availableProblem, List.of(),
                List.of(), null);
    }

    public StatusInput(long generation, AllocationState allocation, BackendState backends, String networkType,
            String arpAnnouncingNode) {
        this(generation, allocation, backends, networkType, arpAnnouncingNode, List.of(), null);
    }
}
