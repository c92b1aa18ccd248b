package me.loutres.juneau.agent.bgp;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What this node's BIRD says about one peer's session, ready for its BGPSession's status.
 *
 * @param peer      the BGPPeer's name
 * @param state     Idle, Connect, Active, OpenSent, OpenConfirm or Established
 * @param bfdState  Up, Down, Init or AdminDown; null without BFD
 * @param routes    routes advertised to the peer
 * @param lastError BIRD's last error for the session, or why it is not configured / BIRD does not run; null when none
 * @param withheld  the ExternalNetworks the session should send whose routes BIRD does not carry, each with why
 *                  (docs/bgp.md, "Troubleshooting"); empty when BIRD carries them all
 */
public record SessionReport(String peer, String state, String bfdState, long routes, String lastError,
                            Map<String, String> withheld) {
    public SessionReport {
        withheld = Collections.unmodifiableMap(new TreeMap<>(withheld));
    }

    /** A report of a session whose networks BIRD all carries. */
    public SessionReport(String peer, String state, String bfdState, long routes, String lastError) {
        this(peer, state, bfdState, routes, lastError, Map.of());
    }

    public boolean established() {
        return "Established".equals(state);
    }
}
