package me.loutres.juneau.agent.bgp;

/**
 * What this node's BIRD says about one peer's session, ready for its BGPSession's status.
 *
 * @param peer      the BGPPeer's name
 * @param state     Idle, Connect, Active, OpenSent, OpenConfirm or Established
 * @param bfdState  Up, Down, Init or AdminDown; null without BFD
 * @param routes    routes advertised to the peer
 * @param lastError BIRD's last error for the session, or why it is not configured / BIRD does not run; null when none
 */
public record SessionReport(String peer, String state, String bfdState, long routes, String lastError) {
    public boolean established() {
        return "Established".equals(state);
    }
}
