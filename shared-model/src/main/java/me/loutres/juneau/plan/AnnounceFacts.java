package me.loutres.juneau.plan;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.loutres.juneau.selection.NodeEligibility;

/**
 * Who may announce a Service's VIP and what the agents report about it (docs/phases-and-conditions.md).
 *
 * @param eligibility      the network's node selector and Kubernetes' exclusion label over the Nodes' labels
 * @param arpWithoutAgents a node without an agent Lease is still an ARP candidate (the controller's
 *                         {@code --arp-without-agents}: a local stack where no agent is meant to answer)
 * @param sessions         BGP sessions reported by the agents of the Service's nodes (others are ignored)
 * @param peers            the network's {@code spec.bgp.peers}; empty = every BGPPeer
 * @param refusedWrites    per node and kind (BGPSession, ARPAdvertisement), what the API server answered when the
 *                         node's agent wrote and was refused ({@link RefusedWrites}, from the agent's Lease); absent
 *                         = none known
 */
public record AnnounceFacts(NodeEligibility eligibility, boolean arpWithoutAgents, List<SessionReport> sessions,
        List<String> peers, Map<String, Map<String, String>> refusedWrites) {

    /**
     * One BGPSession as its agent reports it (plain data: the planner reads no API object it does not need).
     *
     * @param withheld why the node's BIRD does not carry the Service's network's routes on this session (its
     *                 {@code status.withheldNetworks} entry for the network), or null when it carries them
     * @param carried  the addresses the session's routes cover ({@code status.carriedAddresses}), or null when its
     *                 agent does not report them
     */
    public record SessionReport(String peer, String node, String state, String lastError, String withheld,
            List<String> carried) {
        public static final String ESTABLISHED = "Established";

        public SessionReport {
            carried = carried == null ? null : carried.stream().filter(Objects::nonNull).toList();
        }

        /** An agent that reports no {@code carriedAddresses}: judged per network only. */
        public SessionReport(String peer, String node, String state, String lastError, String withheld) {
            this(peer, node, state, lastError, withheld, null);
        }

        /** A session that carries the network's routes (nothing withheld). */
        public SessionReport(String peer, String node, String state, String lastError) {
            this(peer, node, state, lastError, null);
        }

        /**
         * Whether the session's BIRD carries a route covering {@code vip}, as its agent reports ({@code
         * status.carriedAddresses}, {@link me.loutres.juneau.bgp.CarriedAddresses}); an agent that does not report it
         * is taken at its per-network word.
         */
        public boolean carriesAddress(String vip) {
            return carried == null || me.loutres.juneau.bgp.CarriedAddresses.covers(carried, vip);
        }

        /** Established and sending the network's routes: the router has them from this node. */
        public boolean carries() {
            return established() && withheld == null;
        }

        public boolean established() {
            return ESTABLISHED.equals(state);
        }
    }

    public AnnounceFacts {
        eligibility = eligibility == null ? NodeEligibility.everyNode() : eligibility;
        sessions = sessions == null ? List.of() : sessions.stream().filter(Objects::nonNull).toList();
        peers = peers == null ? List.of() : peers.stream().filter(Objects::nonNull).toList();
        refusedWrites = refusedWrites == null ? Map.of() : Map.copyOf(refusedWrites);
    }

    /** What the API server answered the node's agent for a write of {@code kind}; null when none is refused. */
    public String refused(String node, String kind) {
        Map<String, String> byKind = refusedWrites.get(node);
        return byKind == null ? null : byKind.get(kind);
    }

    /** No refused write known. */
    public AnnounceFacts(NodeEligibility eligibility, boolean arpWithoutAgents, List<SessionReport> sessions,
            List<String> peers) {
        this(eligibility, arpWithoutAgents, sessions, peers, Map.of());
    }

    /** Every node may announce, a node without an agent may answer ARP, no session reported: the old rules. */
    public static AnnounceFacts lenient() {
        return new AnnounceFacts(NodeEligibility.everyNode(), true, List.of(), List.of());
    }
}
