package me.loutres.juneau.agent.plan;

import java.util.List;
import java.util.SortedMap;
import me.loutres.juneau.agent.bgp.BirdConfig;
import me.loutres.juneau.agent.own.Claim;

/**
 * What one node must do, as plain data: the output of {@link NodePlanner}.
 *
 * @param arpOwned   the VIPs it answers ARP for
 * @param arpInvalid advertisements for it that cannot be answered, with why
 * @param bird       what its BIRD must run (sessions and routes)
 * @param sessions   one entry per BGPPeer that applies to this node: its BGPSession's identity, and why it cannot be
 *                   configured when it cannot (then it is not in {@code bird})
 * @param birdProblem why BIRD cannot run at all on this node (no router id), or null
 * @param problems   other things a person should fix (a community that does not parse), one line each
 */
public record NodePlan(SortedMap<Long, Claim> arpOwned, SortedMap<String, String> arpInvalid, BirdConfig bird,
                       List<SessionPlan> sessions, String birdProblem, List<String> problems) {
    /**
     * One BGPSession this node keeps.
     *
     * @param peer       the BGPPeer's name
     * @param peerUid    its uid (the BGPSession's ownerReference)
     * @param generation its metadata.generation (observedGeneration)
     * @param address    its peerAddress
     * @param bfd        whether a BFD session goes with it
     * @param problem    why it is not configured, or null
     */
    public record SessionPlan(String peer, String peerUid, long generation, String address, boolean bfd,
                              String problem) {
    }

    /** Whether BIRD has anything to do here: a session or a route. */
    public boolean needsBird() {
        return !bird.neighbors().isEmpty() || bird.networks().stream().anyMatch(n -> !n.prefixes().isEmpty());
    }
}
