package me.loutres.juneau.admission;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.SecretKeyRef;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.view.ClusterView;

/**
 * BGPPeer CREATE, UPDATE, DELETE (docs/admission.md, BGPPeer): ranges and literals, the timers BIRD accepts, the
 * BFDProfile and password Secret it names, no second peer for the same neighbour and nodes, and no DELETE while an
 * ExternalNetwork lists it. Every lookup is by name or through an index of the view.
 */
final class BgpPeerRules extends ReferencedKindRules {
    static final long ASN_MAX = 4_294_967_294L;
    /** AS_TRANS (RFC 6793): stands in for a 4-byte AS number towards old speakers; never a real AS. */
    static final long AS_TRANS = 23_456L;
    static final int DEFAULT_PORT = 179;
    static final String ASN_ACCEPTED = "accepted: 1 to 4294967294 except 23456";
    static final String HOLD_ACCEPTED = "accepted: 0s (no hold timer) or 3s to 65535s, e.g. 90s";

    @Override
    Verdict reviewWrite(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        BGPPeer peer = review.objectAs(BGPPeer.class, JuneauConstants.KIND_BGP_PEER);
        BGPPeer old = review.oldObjectAs(BGPPeer.class, JuneauConstants.KIND_BGP_PEER);
        BGPPeerSpec spec = peer.getSpec();
        if (spec == null) {
            verdict.problem("spec: missing; a BGPPeer needs spec.peerAddress, spec.peerASN and spec.myASN");
            return verdict;
        }
        BGPPeerSpec oldSpec = old == null ? null : old.getSpec();
        address(verdict, "spec.peerAddress", spec.getPeerAddress(), true);
        address(verdict, "spec.sourceAddress", spec.getSourceAddress(), false);
        asn(verdict, "spec.peerASN", spec.getPeerASN());
        asn(verdict, "spec.myASN", spec.getMyASN());
        if (spec.getPeerPort() != null && (spec.getPeerPort() < 1 || spec.getPeerPort() > 65_535)) {
            verdict.problem("spec.peerPort: " + spec.getPeerPort() + " is out of range; accepted: 1 to 65535"
                    + " (default 179)");
        }
        timers(verdict, spec);
        List<LabelSelector> selectors = spec.getNodeSelectors() == null ? List.of() : spec.getNodeSelectors();
        for (int i = 0; i < selectors.size(); i++) {
            LabelSelectorRules.check(verdict, "spec.nodeSelectors[" + i + "]", selectors.get(i));
        }
        SecretKeyRef password = spec.getPasswordSecret();
        if (password != null) {
            if (blank(password.getName())) {
                verdict.problem("spec.passwordSecret.name: missing; accepted: the name of a Secret in "
                        + JuneauConstants.SYSTEM_NAMESPACE);
            }
            if (blank(password.getKey())) {
                verdict.problem("spec.passwordSecret.key: missing; accepted: the key of that Secret holding the"
                        + " password");
            }
        }
        if (review.beingDeleted()) {
            return verdict;
        }
        // what was admitted before is not judged again: a later change elsewhere must not block unrelated edits
        if (spec.getBfdProfile() != null && (oldSpec == null || !spec.getBfdProfile().equals(oldSpec.getBfdProfile()))
                && view.bfdProfile(spec.getBfdProfile()).isEmpty()) {
            verdict.problem("spec.bfdProfile: BFDProfile " + Texts.quote(spec.getBfdProfile()) + " does not exist;"
                    + " accepted: the name of an existing BFDProfile (kubectl get bfdprofiles), or no bfdProfile");
        }
        if (password != null && !blank(password.getName()) && !blank(password.getKey())
                && (oldSpec == null || !password.equals(oldSpec.getPasswordSecret()))) {
            secret(verdict, password, view);
        }
        if (Ipv4.isValid(spec.getPeerAddress())) {
            duplicate(verdict, Texts.name(peer), spec, view);
        }
        return verdict;
    }

    @Override
    Verdict reviewDelete(String name, ClusterView view) {
        List<String> networks = new ArrayList<>();
        for (ExternalNetwork n : view.externalNetworksNamingPeer(name)) {
            if (!Texts.beingDeleted(n)) {
                networks.add(Texts.name(n));
            }
        }
        if (networks.isEmpty()) {
            return Verdict.allow();
        }
        networks.sort(null);
        return Verdict.deny("BGPPeer " + name + " cannot be deleted: ExternalNetwork "
                + Texts.list(networks, ExternalNetworkRules.MAX_NAMED_REFERENCES) + (networks.size() == 1 ? " lists" : " list")
                + " it in spec.bgp.peers; remove it from there first");
    }

    private static void address(Verdict verdict, String field, String value, boolean required) {
        if (value == null) {
            if (required) {
                verdict.problem(field + ": missing; accepted: the neighbour's IPv4 address, e.g. 192.0.2.1");
            }
            return;
        }
        try {
            Ipv4.parse(value);
        } catch (InvalidAddressException e) {
            verdict.problem(field + ": " + e.getMessage());
        }
    }

    private static void asn(Verdict verdict, String field, Long asn) {
        if (asn == null) {
            verdict.problem(field + ": missing; " + ASN_ACCEPTED);
        } else if (asn == AS_TRANS) {
            verdict.problem(field + ": 23456 is AS_TRANS, which stands in for 4-byte AS numbers and is no real AS; "
                    + ASN_ACCEPTED);
        } else if (asn < 1 || asn > ASN_MAX) {
            verdict.problem(field + ": " + asn + " is out of range; " + ASN_ACCEPTED);
        }
    }

    /** holdTime 0 or 3-65535 s; keepaliveTime below it, 0 only with a hold time of 0 (docs/api-reference.md). */
    private static void timers(Verdict verdict, BGPPeerSpec spec) {
        Long hold = 90L;
        if (spec.getHoldTime() != null) {
            hold = seconds(verdict, "spec.holdTime", spec.getHoldTime(), HOLD_ACCEPTED);
            if (hold != null && hold != 0 && (hold < 3 || hold > 65_535)) {
                verdict.problem("spec.holdTime: " + Texts.quote(spec.getHoldTime()) + " is out of range; "
                        + HOLD_ACCEPTED);
                hold = null;
            }
        }
        if (spec.getKeepaliveTime() == null) {
            return;
        }
        String keepaliveAccepted = hold == null ? "accepted: a duration shorter than holdTime, e.g. 30s"
                : hold == 0 ? "accepted: 0s or no keepaliveTime, as holdTime is 0s"
                : "accepted: 1s to " + (hold - 1) + "s (default a third of holdTime, " + (hold / 3) + "s)";
        Long keepalive = seconds(verdict, "spec.keepaliveTime", spec.getKeepaliveTime(), keepaliveAccepted);
        if (keepalive == null || hold == null) {
            return;
        }
        String holdText = spec.getHoldTime() == null ? "the default 90s" : Texts.quote(spec.getHoldTime());
        if (keepalive == 0 && hold != 0) {
            verdict.problem("spec.keepaliveTime: " + Texts.quote(spec.getKeepaliveTime()) + " turns keepalives off,"
                    + " which only a holdTime of 0s allows (holdTime is " + holdText + "); " + keepaliveAccepted);
        } else if (hold != 0 && keepalive >= hold) {
            verdict.problem("spec.keepaliveTime: " + Texts.quote(spec.getKeepaliveTime()) + " is not less than"
                    + " spec.holdTime (" + holdText + "); " + keepaliveAccepted);
        } else if (hold == 0 && keepalive != 0) {
            verdict.problem("spec.keepaliveTime: " + Texts.quote(spec.getKeepaliveTime()) + " is not less than"
                    + " spec.holdTime (\"0s\"); " + keepaliveAccepted);
        }
    }

    private static Long seconds(Verdict verdict, String field, String text, String accepted) {
        if (!Durations.isDuration(text)) {
            verdict.problem(field + ": " + Texts.quote(text) + " is not a duration; " + accepted
                    + " (units h, m, s, ms)");
            return null;
        }
        Long s = Durations.seconds(text);
        if (s == null) {
            verdict.problem(field + ": " + Texts.quote(text) + " is not a whole number of seconds; " + accepted);
        }
        return s;
    }

    private static void secret(Verdict verdict, SecretKeyRef ref, ClusterView view) {
        Optional<Set<String>> keys = view.systemSecretKeys(ref.getName());
        if (keys.isEmpty()) {
            verdict.problem("spec.passwordSecret.name: Secret " + Texts.quote(ref.getName()) + " does not exist in"
                    + " namespace " + JuneauConstants.SYSTEM_NAMESPACE + "; accepted: a Secret in "
                    + JuneauConstants.SYSTEM_NAMESPACE + " with the password under spec.passwordSecret.key");
        } else if (!keys.get().contains(ref.getKey())) {
            verdict.problem("spec.passwordSecret.key: Secret " + JuneauConstants.SYSTEM_NAMESPACE + "/"
                    + ref.getName() + " has no key " + Texts.quote(ref.getKey()) + "; accepted: one of its keys ("
                    + Texts.list(keys.get().stream().sorted().toList()) + ")");
        }
    }

    /**
     * Two peers for one neighbour (address and port) are refused when some node would hold both sessions: both
     * select every node, or they select with the same selectors. Overlap of different selectors depends on the
     * nodes' labels, which change later, so it is left to the agent.
     */
    private static void duplicate(Verdict verdict, String name, BGPPeerSpec spec, ClusterView view) {
        int port = spec.getPeerPort() == null ? DEFAULT_PORT : spec.getPeerPort();
        Set<LabelSelector> mine = selectors(spec);
        List<String> clashes = new ArrayList<>();
        for (BGPPeer other : view.bgpPeersWithAddress(spec.getPeerAddress())) {
            BGPPeerSpec o = other.getSpec();
            if (o == null || Objects.equals(Texts.name(other), name) || Texts.beingDeleted(other)) {
                continue;
            }
            int otherPort = o.getPeerPort() == null ? DEFAULT_PORT : o.getPeerPort();
            if (otherPort == port && selectors(o).equals(mine)) {
                clashes.add(Texts.quote(Texts.name(other)));
            }
        }
        if (clashes.isEmpty()) {
            return;
        }
        clashes.sort(null);
        verdict.problem("spec.peerAddress: " + spec.getPeerAddress() + " port " + port + " is already the neighbour"
                + " of BGPPeer " + String.join(", ", clashes) + " for the same nodes ("
                + (mine.isEmpty() ? "neither has nodeSelectors" : "identical nodeSelectors")
                + "), and a node holds one session per neighbour; accepted: another peerAddress or peerPort, or"
                + " nodeSelectors that differ from that BGPPeer's");
    }

    private static Set<LabelSelector> selectors(BGPPeerSpec spec) {
        Set<LabelSelector> out = new HashSet<>();
        if (spec.getNodeSelectors() != null) {
            for (LabelSelector s : spec.getNodeSelectors()) {
                if (s != null && !matchesEverything(s)) {
                    out.add(s);
                } else if (s != null) {
                    return Set.of(); // an empty selector selects every node: the whole list does
                }
            }
        }
        return out;
    }

    private static boolean matchesEverything(LabelSelector s) {
        return (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
