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
import me.loutres.juneau.bgp.Md5PasswordRule;
import me.loutres.juneau.bgp.PeerSpecRules;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.view.ClusterView;

/**
 * BGPPeer CREATE, UPDATE, DELETE (docs/admission.md, BGPPeer): the spec's own rules ({@link PeerSpecRules}, which the
 * node agent applies too), the BFDProfile and password Secret it names (the password within {@link Md5PasswordRule}),
 * no second peer for the same neighbour and nodes, and no DELETE while an ExternalNetwork lists it. Every lookup is by
 * name or through an index of the view.
 */
final class BgpPeerRules extends ReferencedKindRules {
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
        PeerSpecRules.problems(spec).forEach(verdict::problem);
        List<LabelSelector> selectors = spec.getNodeSelectors() == null ? List.of() : spec.getNodeSelectors();
        for (int i = 0; i < selectors.size(); i++) {
            LabelSelectorRules.check(verdict, "spec.nodeSelectors[" + i + "]", selectors.get(i));
        }
        SecretKeyRef password = spec.getPasswordSecret();
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
        } else {
            view.systemSecretPasswordProblem(ref.getName(), ref.getKey()).ifPresent(problem -> verdict.problem(
                    "spec.passwordSecret: the value of key " + Texts.quote(ref.getKey()) + " in Secret "
                            + JuneauConstants.SYSTEM_NAMESPACE + "/" + ref.getName() + " " + problem + "; "
                            + Md5PasswordRule.ACCEPTED));
        }
    }

    /**
     * Two peers for one neighbour (address and port) are refused when some node would hold both sessions: both
     * select every node, or they select with the same selectors. Overlap of different selectors depends on the
     * nodes' labels, which change later, so it is left to the agent.
     */
    private static void duplicate(Verdict verdict, String name, BGPPeerSpec spec, ClusterView view) {
        int port = PeerSpecRules.port(spec);
        Set<LabelSelector> mine = selectors(spec);
        List<String> clashes = new ArrayList<>();
        for (BGPPeer other : view.bgpPeersWithAddress(spec.getPeerAddress())) {
            BGPPeerSpec o = other.getSpec();
            if (o == null || Objects.equals(Texts.name(other), name) || Texts.beingDeleted(other)) {
                continue;
            }
            int otherPort = PeerSpecRules.port(o);
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
