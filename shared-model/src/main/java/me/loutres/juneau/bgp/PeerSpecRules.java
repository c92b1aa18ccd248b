package me.loutres.juneau.bgp;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.SecretKeyRef;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;

/**
 * The rules of one BGPPeer's spec on its own, and its defaults: what admission refuses (docs/admission.md, BGPPeer)
 * and what the node agent checks again before it gives the peer to BIRD, with the same words. Everything these rules
 * let through, the agent renders and BIRD accepts (the agent's BirdAcceptsAdmittedIT runs the real {@code bird -p}
 * on generated peers). Rules that read other objects (the BFDProfile, the Secret, other peers) are admission's.
 */
public final class PeerSpecRules {
    public static final int DEFAULT_PORT = 179;
    public static final String DEFAULT_HOLD_TIME = "90s";
    public static final long ASN_MAX = 4_294_967_294L;
    /** AS_TRANS (RFC 6793): stands in for a 4-byte AS number towards old speakers; never a real AS. */
    public static final long AS_TRANS = 23_456L;
    static final String ASN_ACCEPTED = "accepted: 1 to 4294967294 except 23456";
    static final String HOLD_ACCEPTED = "accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s";
    static final String BFD_MULTIHOP = "BIRD sends BFD for a multihop session from a fixed address (\"Multihop BGP"
            + " with BFD requires specified local address\")";

    private PeerSpecRules() {
    }

    /** BGP timers in BIRD's whole seconds. */
    public record Timers(int holdSeconds, Integer keepaliveSeconds) {
    }

    /** Every problem of the spec, each {@code field: value ...; accepted: ...}; empty when BIRD can run it. */
    public static List<String> problems(BGPPeerSpec spec) {
        List<String> out = new ArrayList<>();
        if (spec == null) {
            out.add("spec: missing; a BGPPeer needs spec.peerAddress, spec.peerASN and spec.myASN");
            return out;
        }
        address(out, "spec.peerAddress", spec.getPeerAddress(), true);
        address(out, "spec.sourceAddress", spec.getSourceAddress(), false);
        asn(out, "spec.peerASN", spec.getPeerASN());
        asn(out, "spec.myASN", spec.getMyASN());
        if (spec.getPeerPort() != null && (spec.getPeerPort() < 1 || spec.getPeerPort() > 65_535)) {
            out.add("spec.peerPort: " + spec.getPeerPort() + " is out of range; accepted: 1 to 65535 (default 179)");
        }
        timers(out, spec);
        if (spec.getBfdProfile() != null && spec.getSourceAddress() == null && multihop(spec)) {
            out.add("spec.sourceAddress: missing, but the session is multihop ("
                    + (internal(spec) ? "iBGP: peerASN equals myASN" : "spec.ebgpMultiHop is true")
                    + ") and uses BFD (spec.bfdProfile " + quote(spec.getBfdProfile()) + "); " + BFD_MULTIHOP
                    + "; accepted: the nodes' address towards the peer in spec.sourceAddress, or no bfdProfile");
        }
        SecretKeyRef password = spec.getPasswordSecret();
        if (password != null) {
            if (blank(password.getName())) {
                out.add("spec.passwordSecret.name: missing; accepted: the name of a Secret in "
                        + JuneauConstants.SYSTEM_NAMESPACE);
            }
            if (blank(password.getKey())) {
                out.add("spec.passwordSecret.key: missing; accepted: the key of that Secret holding the password");
            }
        }
        return out;
    }

    /** iBGP: both ends in one AS (BIRD then treats the session as multihop unless told it is direct). */
    public static boolean internal(BGPPeerSpec spec) {
        return spec.getPeerASN() != null && spec.getPeerASN().equals(spec.getMyASN());
    }

    /** Whether BIRD runs the session as multihop: {@code ebgpMultiHop}, or iBGP (BIRD's default for it). */
    public static boolean multihop(BGPPeerSpec spec) {
        return Boolean.TRUE.equals(spec.getEbgpMultiHop()) || internal(spec);
    }

    public static int port(BGPPeerSpec spec) {
        return spec.getPeerPort() == null ? DEFAULT_PORT : spec.getPeerPort();
    }

    /**
     * The timers of a spec {@link #problems} accepts: the hold time (default 90 s) and the keepalive time, null for
     * BIRD's default of a third of the hold time (and always null with a hold time of 0: no keepalives).
     */
    public static Timers timers(BGPPeerSpec spec) {
        long hold = Durations.wholeSeconds(spec.getHoldTime() == null ? DEFAULT_HOLD_TIME : spec.getHoldTime());
        Long keepalive = spec.getKeepaliveTime() == null || hold == 0 ? null
                : Durations.wholeSeconds(spec.getKeepaliveTime());
        return new Timers((int) hold, keepalive == null ? null : keepalive.intValue());
    }

    /**
     * Addresses that can never be a BGP neighbour or a session's own address: BIRD takes them and then fails at run
     * time ({@code Invalid remote address}, {@code Invalid next hop}). IPv4 link-local (169.254.0.0/16) stays
     * accepted: BIRD peers over it on a direct link, as some providers' routers expect.
     */
    private static String notANeighbour(long address) {
        long first = address >>> 24;
        if (first == 0) {
            return "0.0.0.0/8 (\"this network\", a source address only)";
        }
        if (first == 127) {
            return "127.0.0.0/8 (loopback: this node itself)";
        }
        if (first >= 224 && first <= 239) {
            return "224.0.0.0/4 (multicast: not a unicast address)";
        }
        if (first >= 240) {
            return "240.0.0.0/4 (reserved, with the broadcast address 255.255.255.255)";
        }
        return null;
    }

    private static void address(List<String> out, String field, String value, boolean required) {
        if (value == null) {
            if (required) {
                out.add(field + ": missing; accepted: the neighbour's IPv4 address, e.g. 192.0.2.1");
            }
            return;
        }
        long address;
        try {
            address = Ipv4.parse(value);
        } catch (InvalidAddressException e) {
            out.add(field + ": " + e.getMessage());
            return;
        }
        String range = notANeighbour(address);
        if (range != null) {
            out.add(field + ": " + value + " is in " + range + ", which cannot be a BGP session's address;"
                    + " accepted: a unicast IPv4 address, e.g. 192.0.2.1");
        }
    }

    private static void asn(List<String> out, String field, Long asn) {
        if (asn == null) {
            out.add(field + ": missing; " + ASN_ACCEPTED);
        } else if (asn == AS_TRANS) {
            out.add(field + ": 23456 is AS_TRANS, which stands in for 4-byte AS numbers and is no real AS; "
                    + ASN_ACCEPTED);
        } else if (asn < 1 || asn > ASN_MAX) {
            out.add(field + ": " + asn + " is out of range; " + ASN_ACCEPTED);
        }
    }

    /** holdTime 0 or 3-65535 s; keepaliveTime below it, 0 only with a hold time of 0 (docs/api-reference.md). */
    private static void timers(List<String> out, BGPPeerSpec spec) {
        Long hold = 90L;
        if (spec.getHoldTime() != null) {
            hold = seconds(out, "spec.holdTime", spec.getHoldTime(), HOLD_ACCEPTED);
            if (hold != null && hold != 0 && (hold < 3 || hold > 65_535)) {
                out.add("spec.holdTime: " + quote(spec.getHoldTime()) + " is out of range; " + HOLD_ACCEPTED);
                hold = null;
            }
        }
        if (spec.getKeepaliveTime() == null) {
            return;
        }
        String keepaliveAccepted = hold == null ? "accepted: a duration shorter than holdTime, e.g. 30s"
                : hold == 0 ? "accepted: 0s or no keepaliveTime, as holdTime is 0s"
                : "accepted: 1s to " + (hold - 1) + "s (default a third of holdTime, " + (hold / 3) + "s)";
        Long keepalive = seconds(out, "spec.keepaliveTime", spec.getKeepaliveTime(), keepaliveAccepted);
        if (keepalive == null || hold == null) {
            return;
        }
        String holdText = spec.getHoldTime() == null ? "the default 90s" : quote(spec.getHoldTime());
        if (keepalive < 0) {
            out.add("spec.keepaliveTime: " + quote(spec.getKeepaliveTime()) + " is negative; " + keepaliveAccepted);
        } else if (keepalive == 0 && hold != 0) {
            out.add("spec.keepaliveTime: " + quote(spec.getKeepaliveTime()) + " turns keepalives off,"
                    + " which only a holdTime of 0s allows (holdTime is " + holdText + "); " + keepaliveAccepted);
        } else if (hold != 0 && keepalive >= hold) {
            out.add("spec.keepaliveTime: " + quote(spec.getKeepaliveTime()) + " is not less than"
                    + " spec.holdTime (" + holdText + "); " + keepaliveAccepted);
        } else if (hold == 0 && keepalive != 0) {
            out.add("spec.keepaliveTime: " + quote(spec.getKeepaliveTime()) + " is not less than"
                    + " spec.holdTime (\"0s\"); " + keepaliveAccepted);
        }
    }

    private static Long seconds(List<String> out, String field, String text, String accepted) {
        Long ns = Durations.nanos(text);
        if (ns == null) {
            out.add(field + ": " + quote(text) + " is not a duration; " + accepted + " (" + Durations.FORM + ")");
            return null;
        }
        if (ns % 1_000_000_000L != 0) {
            out.add(field + ": " + quote(text) + " is not a whole number of seconds (BIRD's BGP timers are whole"
                    + " seconds); " + accepted);
            return null;
        }
        return ns / 1_000_000_000L;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    static String quote(String s) {
        return me.loutres.juneau.view.KubeObjects.quote(s);
    }
}
