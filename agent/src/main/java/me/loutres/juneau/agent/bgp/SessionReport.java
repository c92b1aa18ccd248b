package me.loutres.juneau.agent.bgp;

import java.util.Collections;
import java.util.List;
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
 * @param carried   the addresses the routes of the configuration BIRD runs cover on this session, merged
 *                  ({@link me.loutres.juneau.bgp.CarriedAddresses}); empty when it carries none, null when unknown
 */
public record SessionReport(String peer, String state, String bfdState, long routes, String lastError,
                            Map<String, String> withheld, List<String> carried) {
    public SessionReport {
        withheld = Collections.unmodifiableMap(new TreeMap<>(withheld));
        carried = carried == null ? null : List.copyOf(carried);
    }

    /** Without the addresses its routes cover (not reported: the controller then reads it per network). */
    public SessionReport(String peer, String state, String bfdState, long routes, String lastError,
            Map<String, String> withheld) {
        this(peer, state, bfdState, routes, lastError, withheld, null);
    }

    /** A report of a session whose networks BIRD all carries. */
    public SessionReport(String peer, String state, String bfdState, long routes, String lastError) {
        this(peer, state, bfdState, routes, lastError, Map.of());
    }

    public boolean established() {
        return "Established".equals(state);
    }
}
