package me.loutres.juneau.agent.bgp;

import java.time.Duration;
import java.util.Set;

/**
 * The lastError of a session BIRD says nothing about. A TCP MD5 mismatch (RFC 2385) or a filter drops the BGP
 * connection without a reply: BIRD then stays in Connect (or Active) and prints no error, and a BGPSession would
 * read "Connect" with an empty lastError forever. Once a session has been trying longer than BIRD's connect retry
 * time, its lastError says what such silence means (docs/bgp.md, "A session stays in Connect"). Pure.
 */
public final class SilentSessions {
    /** BIRD's connect retry time in the configuration the agent renders: before it, Connect is only starting up. */
    public static final Duration QUIET = Duration.ofSeconds(5);
    private static final Set<String> CONNECTING = Set.of("Connect", "Active");

    private SilentSessions() {
    }

    /**
     * @param bird           what BIRD reports for the session
     * @param neighbor       the session's configuration (its address, port and whether it signs with MD5)
     * @param notEstablished how long the session has not been Established
     * @return BIRD's own last error when it has one; else the meaning of a silence longer than {@link #QUIET}; else
     *         null
     */
    public static String lastError(BirdStatus.Session bird, Neighbor neighbor, Duration notEstablished) {
        if (bird.lastError() != null || bird.established() || neighbor == null
                || !CONNECTING.contains(bird.state()) || notEstablished.compareTo(QUIET) < 0) {
            return bird.lastError();
        }
        String where = neighbor.address() + ":" + neighbor.port();
        if (neighbor.password() != null) {
            return "no reply from " + where + " (BGP state " + bird.state() + "): this node signs the connection with"
                    + " the MD5 password of the BGPPeer's spec.passwordSecret, and a router whose password differs, or"
                    + " that expects none, drops it silently; compare the two passwords";
        }
        return "no reply from " + where + " (BGP state " + bird.state() + "): the connection is dropped silently;"
                + " a filter on the way, or a router that expects an MD5 password (BGPPeer spec.passwordSecret)";
    }
}
