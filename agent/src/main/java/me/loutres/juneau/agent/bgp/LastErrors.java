package me.loutres.juneau.agent.bgp;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@code lastError} of each session (docs/bgp.md, "lastError"): the most telling error of the session's current
 * time down, never overwritten by a generic one that follows it (BIRD says {@code Received: Bad peer AS} once, then
 * only {@code Socket: Connection reset by peer} as the router drops each new attempt, issue 41); and when BIRD says
 * nothing, what to check from the node's facts ({@link PeerReachability}), else what its silence means
 * ({@link SilentSessions}). Remembers one error per peer until the session is Established; no clock, no I/O of its
 * own (the facts come from the supplier, read only when a silent session needs them).
 */
public final class LastErrors {
    /** BIRD's words for a connection that went away, which say nothing of why. */
    private static final List<String> GENERIC = List.of("Connection reset by peer", "Connection closed",
            "Broken pipe");

    private final Map<String, String> telling = new HashMap<>();

    /**
     * @param peer           the BGPPeer's name
     * @param bird           what BIRD reports now
     * @param neighbor       the session's configuration; null when not known
     * @param notEstablished how long the session has not been Established
     * @param reach          the node's facts, read only when needed
     */
    public String of(String peer, BirdStatus.Session bird, Neighbor neighbor, Duration notEstablished,
            Supplier<NodeReach> reach) {
        if (bird.established()) {
            telling.remove(peer);
            return bird.lastError();
        }
        String error = bird.lastError();
        if (error != null) {
            if (!generic(error)) {
                telling.put(peer, error);
                return error;
            }
            String kept = telling.get(peer);
            return kept == null ? error : kept + " (since then: " + error + ")";
        }
        if (neighbor != null && notEstablished.compareTo(SilentSessions.QUIET) >= 0) {
            String hint = PeerReachability.hint(neighbor, reach.get());
            if (hint != null) {
                return hint;
            }
        }
        return SilentSessions.lastError(bird, neighbor, notEstablished);
    }

    /** Forgets the peers that are no longer configured. */
    public void retain(Set<String> peers) {
        telling.keySet().retainAll(peers);
    }

    static boolean generic(String error) {
        return GENERIC.stream().anyMatch(error::contains);
    }
}
